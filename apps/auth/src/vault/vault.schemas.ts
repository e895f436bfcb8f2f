import { z } from 'zod';
import { VAULT_ENTRY_FIELDS, VAULT_ENTRY_TYPES, VAULT_NON_SECRET_FIELDS, vaultEntrySummary, vaultNamespace, type VaultEntryType } from '@meter/contracts';

/** What the vault's validation (docs/vault.md) says of some fields, beyond their length. */
const FIELD_NOTES: Record<string, Record<string, unknown>> = {
  end_point: {
    format: 'uri',
    description: 'URL of the object storage service (http:// or https:// with a host; no user name, password or query string: it is listed in clear).',
  },
  tenant_id: { description: 'Directory identifier.' },
  client_id: { description: 'Application identifier.' },
  connection_string: {
    description: 'An https:// URL, or a `Key=Value;` account or shared-access connection string naming AccountName or an *Endpoint URL.',
  },
  credentials_json: {
    contentMediaType: 'application/json',
    description: 'The service-account JSON document as a string (quotes escaped); it must hold a JSON object.',
  },
};

/** The fields the list shows as stored, for the documents: `end_point`, `region`, ... */
export const NON_SECRET_FIELD_NAMES = [...VAULT_NON_SECRET_FIELDS].map((name) => `\`${name}\``).join(', ');

/** One alternative of the upsert body: `data` holds exactly the fields of `type`, each within its limit (VAULT_ENTRY_FIELDS). */
function entryOfType<T extends VaultEntryType>(type: T) {
  const limits: Record<string, number> = VAULT_ENTRY_FIELDS[type];
  const fields = Object.fromEntries(
    Object.entries(limits).map(([name, max]) => {
      const { description = '', ...notes } = (FIELD_NOTES[name] ?? {}) as { description?: string };
      return [
        name,
        z
          .string()
          .min(1)
          .max(max)
          .meta({ ...notes, description: `${description} At most ${max} characters, not blank.`.trim() }),
      ];
    }),
  );
  return z
    .strictObject({
      namespace: vaultNamespace.max(100).meta({ description: 'Groups entries; the name an integration is activated with.' }),
      type: z.literal(type),
      data: z.strictObject(fields),
    })
    .meta({ description: `An entry of type \`${type}\`.` });
}

/**
 * The body of PATCH /organization-vault. The auth service forwards it as
 * received; the vault service validates it, so its errors name these fields.
 */
export const vaultEntryUpsertRequest = z
  .discriminatedUnion('type', VAULT_ENTRY_TYPES.map(entryOfType) as unknown as [ReturnType<typeof entryOfType>, ...ReturnType<typeof entryOfType>[]])
  .meta({ id: 'VaultEntryUpsert', description: 'The entry of (namespace, type); `data` holds exactly the fields of its type.' });

export const vaultEntryIdSchema = z.object({ id: z.uuid().meta({ description: 'Stable for the (namespace, type) pair.' }) }).meta({ id: 'VaultEntryId' });

export type VaultEntryId = z.output<typeof vaultEntryIdSchema>;

export const vaultEntryListSchema = z
  .object({
    entries: z.array(
      vaultEntrySummary.meta({
        id: 'VaultEntry',
        description:
          `An entry with its data fields: the non-secret ones (${NON_SECRET_FIELD_NAMES}) as stored, the secrets masked ` +
          '(`****` and at most their last 4 characters, never more than a quarter).',
      }),
    ),
  })
  .meta({ id: 'VaultEntryList' });

export type VaultEntryList = z.output<typeof vaultEntryListSchema>;

export const vaultEntryIdPath = z.object({
  id: z.uuid().meta({ description: 'The entry id.', param: { example: '0b6f3c1e-94d2-4a7b-8e15-3c9d2f7a6b40' } }),
});
