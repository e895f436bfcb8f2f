import { associatedData, generateDataKey, sealedKeyId, unwrapDataKey, wrapDataKey, type KeyRing } from '@meter/crypto';
import type { Sql } from './sql';

interface OrgDataKey {
  key: Uint8Array;
  /** True when this call created the organization's data key. */
  created: boolean;
  rootKeyId: string;
}

const ad = (orgId: string) => associatedData({ org: orgId });

/** The organization's data key, created (and wrapped under the active root key) on first use. */
export async function findOrCreateDataKey(sql: Sql, ring: KeyRing, orgId: string): Promise<OrgDataKey> {
  const existing = await findWrapped(sql, orgId);
  if (existing) return { key: unwrapDataKey(ring, existing.wrapped_key, ad(orgId)), created: false, rootKeyId: existing.root_key_id };
  const wrapped = wrapDataKey(ring, generateDataKey(), ad(orgId));
  const inserted: unknown[] = await sql.query(
    `INSERT INTO vault.data_keys (org_id, wrapped_key, root_key_id) VALUES ($1, $2, $3)
     ON CONFLICT (org_id) DO NOTHING RETURNING org_id`,
    [orgId, wrapped, sealedKeyId(wrapped)],
  );
  // A concurrent first upsert of the same organization may have won; use its key.
  const stored = await findWrapped(sql, orgId);
  if (!stored) throw new Error('data key vanished after insert');
  return { key: unwrapDataKey(ring, stored.wrapped_key, ad(orgId)), created: inserted.length === 1, rootKeyId: stored.root_key_id };
}

/** The organization's data key, or undefined when it has none (so it has no entries either). */
export async function findDataKey(sql: Sql, ring: KeyRing, orgId: string): Promise<Uint8Array | undefined> {
  const existing = await findWrapped(sql, orgId);
  return existing ? unwrapDataKey(ring, existing.wrapped_key, ad(orgId)) : undefined;
}

/** Re-wraps one data key under the ring's active key; false when it already is. Run inside a transaction. */
export async function rewrapDataKey(sql: Sql, ring: KeyRing, orgId: string): Promise<{ rewrapped: boolean; from: string; to: string }> {
  const rows: { wrapped_key: string; root_key_id: string }[] = await sql.query(
    `SELECT wrapped_key, root_key_id FROM vault.data_keys WHERE org_id = $1 FOR UPDATE`,
    [orgId],
  );
  const row = rows[0];
  if (!row) throw new Error(`organization ${orgId} has no data key`);
  const active = ring[0]!.id;
  if (sealedKeyId(row.wrapped_key) === active) return { rewrapped: false, from: row.root_key_id, to: active };
  const wrapped = wrapDataKey(ring, unwrapDataKey(ring, row.wrapped_key, ad(orgId)), ad(orgId));
  await sql.query(`UPDATE vault.data_keys SET wrapped_key = $2, root_key_id = $3, rewrapped_at = now() WHERE org_id = $1`, [orgId, wrapped, active]);
  return { rewrapped: true, from: row.root_key_id, to: active };
}

async function findWrapped(sql: Sql, orgId: string): Promise<{ wrapped_key: string; root_key_id: string } | undefined> {
  const rows: { wrapped_key: string; root_key_id: string }[] = await sql.query(`SELECT wrapped_key, root_key_id FROM vault.data_keys WHERE org_id = $1`, [
    orgId,
  ]);
  return rows[0];
}
