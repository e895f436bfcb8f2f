import { z } from 'zod';
import type { BusNames } from './bus';
import { orgIdSchema } from './ids';
import { fieldError, rpcCommonErrors, rpcReply } from './rpc';

/**
 * The vault service answers only over NATS request/reply (docs/vault.md).
 * Management subjects are used by the auth service on behalf of an admin;
 * the internal subject returns an entry decrypted and is reserved, by NATS
 * permissions (deploy/base/nats/vault-permissions.conf), to integration workers.
 * One schema per message: it validates the payload and types the code.
 */
export const VAULT_SUBJECTS = {
  upsert: 'vault.rpc.upsert',
  list: 'vault.rpc.list',
  delete: 'vault.rpc.delete',
  open: 'vault.internal.open',
} as const;

/** Every vault replica subscribes in this queue group, so each request is answered once. */
export const VAULT_QUEUE_GROUP = 'vault';

export type VaultOperation = keyof typeof VAULT_SUBJECTS;

export function vaultSubject(bus: BusNames, operation: VaultOperation): string {
  return bus.subject(VAULT_SUBJECTS[operation]);
}

/** The data fields of each entry type and their maximum lengths in characters (docs/vault.md). */
export const VAULT_ENTRY_FIELDS = {
  s3_identity: { access_key: 2048, secret_key: 2048, end_point: 2048, region: 100 },
  azure_identity: { tenant_id: 2048, client_id: 2048, client_secret: 2048, connection_string: 2048 },
  gcs_identity: { credentials_json: 10240, project_id: 100 },
  api_token_identity: { token: 1024 },
} as const satisfies Record<string, Record<string, number>>;

/**
 * Data fields that say where and as whom an export goes, not how it proves it: listed in clear
 * (contract section 4). Every other field is a secret and is listed masked.
 */
export const VAULT_NON_SECRET_FIELDS: ReadonlySet<string> = new Set(['end_point', 'region', 'tenant_id', 'client_id', 'project_id']);

export type VaultEntryType = keyof typeof VAULT_ENTRY_FIELDS;
export const VAULT_ENTRY_TYPES = Object.keys(VAULT_ENTRY_FIELDS) as VaultEntryType[];
export const vaultEntryType = z.enum(VAULT_ENTRY_TYPES as [VaultEntryType, ...VaultEntryType[]]);

/** Namespaces are names an integration is activated with, e.g. `batch`. */
export const VAULT_NAMESPACE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;
export const vaultNamespace = z.string().regex(VAULT_NAMESPACE_PATTERN);

/** A vault entry id: a UUID, the one pattern the auth routes and the vault check ids against. */
export const vaultEntryId = z.uuid();
export const isVaultEntryId = (text: string): boolean => vaultEntryId.safeParse(text).success;
const entryId = vaultEntryId;
/** Who asked, for the audit trail only (an admin id, or an integration worker's name). */
const actor = z.string().min(1).max(200);

export const vaultUpsertRequest = z.object({
  org_id: orgIdSchema,
  actor,
  /**
   * The admin's body as received: the vault validates it with vaultEntryBody
   * (vault-entry.ts), so a 400 names the body's fields, not the request's.
   */
  entry: z.unknown(),
});
export const vaultListRequest = z.object({ org_id: orgIdSchema, actor });
/** An entry that active integrations use, by the (namespace, type) they open: the vault refuses to delete it. */
export const vaultEntryUse = z.object({
  namespace: z.string().max(200),
  type: z.string().max(100),
  integration_ids: z.array(z.string().max(100)).min(1).max(1000),
});
export type VaultEntryUse = z.infer<typeof vaultEntryUse>;
export const vaultDeleteRequest = z.object({
  org_id: orgIdSchema,
  actor,
  entry_id: z.string().min(1).max(200),
  /** Checked in the delete's own transaction, so the refusal and the delete cannot interleave with another delete. */
  in_use: z.array(vaultEntryUse).max(1000).optional(),
});
export const vaultOpenRequest = z.object({
  org_id: orgIdSchema,
  actor,
  namespace: vaultNamespace,
  type: vaultEntryType,
});

export type VaultUpsertRequest = z.infer<typeof vaultUpsertRequest>;
export type VaultListRequest = z.infer<typeof vaultListRequest>;
export type VaultDeleteRequest = z.infer<typeof vaultDeleteRequest>;
export type VaultOpenRequest = z.infer<typeof vaultOpenRequest>;

/**
 * What went wrong, typed so the auth service maps it to problem+json:
 * validation_failed -> 400, not_found -> 404, in_use -> 409, bad_request -> 400 (a
 * malformed request envelope), unreadable (sealed data failed to open) and
 * internal -> 500 without details; deadline_exceeded (the request's deadline
 * passed before the work was done, nothing changed) -> 503.
 */
export const vaultError = z.discriminatedUnion('code', [
  z.object({ code: z.literal('validation_failed'), detail: z.string(), errors: z.array(fieldError).min(1) }),
  z.object({ code: z.literal('not_found'), detail: z.string() }),
  z.object({ code: z.literal('unreadable'), detail: z.string() }),
  z.object({ code: z.literal('in_use'), detail: z.string(), integration_ids: z.array(z.string()).min(1) }),
  ...rpcCommonErrors,
]);
export type VaultError = z.infer<typeof vaultError>;

const reply = <R extends z.ZodType>(result: R) => rpcReply(result, vaultError);

export const vaultEntrySummary = z.object({
  id: entryId,
  namespace: z.string(),
  type: vaultEntryType,
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  version: z.number().int().min(1),
  /** Each data field: non-secret ones (VAULT_NON_SECRET_FIELDS) as stored, secret ones masked (at most their last 4 characters, never more than a quarter). */
  fields: z.record(z.string(), z.string()),
  /** Present (true) when the sealed data does not open (altered or moved); fields is then empty. */
  unreadable: z.literal(true).optional(),
});
export type VaultEntrySummary = z.infer<typeof vaultEntrySummary>;

export const vaultUpsertReply = reply(z.object({ id: entryId, version: z.number().int().min(1), created: z.boolean() }));
export const vaultListReply = reply(z.object({ entries: z.array(vaultEntrySummary) }));
export const vaultDeleteReply = reply(z.object({ id: entryId }));
export const vaultOpenReply = reply(
  z.object({
    id: entryId,
    namespace: z.string(),
    type: vaultEntryType,
    version: z.number().int().min(1),
    data: z.record(z.string(), z.string()),
  }),
);

export type VaultUpsertReply = z.infer<typeof vaultUpsertReply>;
export type VaultListReply = z.infer<typeof vaultListReply>;
export type VaultDeleteReply = z.infer<typeof vaultDeleteReply>;
export type VaultOpenReply = z.infer<typeof vaultOpenReply>;

/**
 * Audit events on `vault.audit.<type>` (stream VAULT_AUDIT), relayed from
 * the vault's outbox with `Nats-Msg-Id` = event_id. Metadata only: never
 * a secret, a masked hint or sealed data.
 */
export const VAULT_AUDIT_TYPES = ['entry.created', 'entry.updated', 'entry.deleted', 'entry.opened', 'data_key.created', 'data_key.rewrapped'] as const;
export const vaultAuditType = z.enum(VAULT_AUDIT_TYPES);
export type VaultAuditType = z.infer<typeof vaultAuditType>;

export const vaultAuditEvent = z.object({
  event_id: z.uuid(),
  type: vaultAuditType,
  org_id: orgIdSchema,
  actor,
  entry_id: entryId.nullable(),
  namespace: z.string().nullable(),
  entry_type: vaultEntryType.nullable(),
  version: z.number().int().min(1).nullable(),
  /** For data_key events: the root key id the data key is wrapped under now. */
  root_key_id: z.string().nullable(),
  occurred_at: z.iso.datetime(),
});
export type VaultAuditEvent = z.infer<typeof vaultAuditEvent>;

/** `vault.audit.entry.created` for `entry.created`. */
export function vaultAuditSubject(type: VaultAuditType): string {
  return `vault.audit.${type}`;
}
