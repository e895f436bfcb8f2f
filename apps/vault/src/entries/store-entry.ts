import { randomUUID } from 'node:crypto';
import type { VaultEntryBody } from '@meter/contracts';
import type { KeyRing } from '@meter/crypto';
import { appendAudit } from '../audit/audit-outbox';
import { findOrCreateDataKey } from '../keys/data-keys';
import type { Sql } from '../keys/sql';
import { sealEntry, type EntryRef } from './entry-seal';

export interface StoredEntry {
  id: string;
  version: number;
  created: boolean;
}

/**
 * Creates or replaces the entry of (org, namespace, type) inside the
 * caller's transaction: the row is locked, its id kept, its version
 * bumped and the data sealed for exactly that row and version, with the
 * audit event in the same transaction. A concurrent first upsert of the
 * same pair fails on the unique key (23505); run it again to update.
 */
export async function storeEntry(sql: Sql, ring: KeyRing, org: string, actor: string, entry: VaultEntryBody): Promise<StoredEntry> {
  const { namespace, type, data } = entry;
  const dataKey = await findOrCreateDataKey(sql, ring, org);
  if (dataKey.created) await appendAudit(sql, 'data_key.created', { org_id: org, actor, root_key_id: dataKey.rootKeyId });
  const existing: { id: string; version: number }[] = await sql.query(
    `SELECT id, version FROM vault.entries WHERE org_id = $1 AND namespace = $2 AND type = $3 FOR UPDATE`,
    [org, namespace, type],
  );
  const current = existing[0];
  const ref: EntryRef = { org, entry: current?.id ?? randomUUID(), namespace, type, version: (current?.version ?? 0) + 1 };
  const sealed = sealEntry(dataKey.key, ref, data);
  if (current) {
    await sql.query(`UPDATE vault.entries SET version = $2, sealed_data = $3, updated_at = now() WHERE id = $1`, [ref.entry, ref.version, sealed]);
  } else {
    await sql.query(`INSERT INTO vault.entries (id, org_id, namespace, type, version, sealed_data) VALUES ($1, $2, $3, $4, $5, $6)`, [
      ref.entry,
      org,
      namespace,
      type,
      ref.version,
      sealed,
    ]);
  }
  await appendAudit(sql, current ? 'entry.updated' : 'entry.created', {
    org_id: org,
    actor,
    entry_id: ref.entry,
    namespace,
    entry_type: type,
    version: ref.version,
  });
  return { id: ref.entry, version: ref.version, created: !current };
}
