import { z } from 'zod';
import { VAULT_NON_SECRET_FIELDS, vaultEntrySummary } from '@meter/contracts';

/** The fields the list shows as stored, for the documents: `end_point`, `region`, ... */
export const NON_SECRET_FIELD_NAMES = [...VAULT_NON_SECRET_FIELDS].map((name) => `\`${name}\``).join(', ');

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
