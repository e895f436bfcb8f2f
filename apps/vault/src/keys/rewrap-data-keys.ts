import type { DataSource } from 'typeorm';
import { associatedData, SealedDataError, sealedKeyId, unwrapDataKey, type KeyRing } from '@meter/crypto';
import { appendAudit } from '../audit/audit-outbox';
import { rewrapDataKey } from './data-keys';

export interface RewrapReport {
  activeKeyId: string;
  rewrapped: number;
  unchanged: number;
  /** Root key ids no wrapped data key names any more: safe to remove from the ring. */
  unusedKeyIds: string[];
  /** Data keys the ring does not unwrap (another ring's, a removed key, altered), by the root key id they name; left as they are. */
  unreadableByKey: Record<string, number>;
  unreadable: number;
}

interface WrappedRow {
  org_id: string;
  wrapped_key: string;
}

function keyIdOf(wrapped: string): string {
  try {
    return sealedKeyId(wrapped);
  } catch {
    return '(malformed)';
  }
}

function unwraps(ring: KeyRing, row: WrappedRow): boolean {
  try {
    unwrapDataKey(ring, row.wrapped_key, associatedData({ org: row.org_id }));
    return true;
  } catch (error) {
    if (error instanceof SealedDataError) return false;
    throw error;
  }
}

/**
 * Step 3 of docs/keys.md for the vault: every data key not under the
 * ring's active key is unwrapped and wrapped again, one organization per
 * transaction with its audit event. Entries are not touched. Re-runnable.
 * Every data key is tried with the ring, those already under the active
 * key id too: a key id alone does not prove the key is the same one.
 */
export async function rewrapDataKeys(dataSource: DataSource, ring: KeyRing, actor: string): Promise<RewrapReport> {
  const activeKeyId = ring[0]!.id;
  const rows: WrappedRow[] = await dataSource.query(`SELECT org_id, wrapped_key FROM vault.data_keys ORDER BY org_id`);
  let rewrapped = 0;
  const unreadableByKey: Record<string, number> = {};
  const unreadableOne = (row: WrappedRow) => {
    const id = keyIdOf(row.wrapped_key);
    unreadableByKey[id] = (unreadableByKey[id] ?? 0) + 1;
  };
  for (const row of rows) {
    if (!unwraps(ring, row)) {
      unreadableOne(row);
      continue;
    }
    if (keyIdOf(row.wrapped_key) === activeKeyId) continue;
    try {
      await dataSource.transaction(async (manager) => {
        const outcome = await rewrapDataKey(manager, ring, row.org_id);
        if (!outcome.rewrapped) return;
        rewrapped += 1;
        await appendAudit(manager, 'data_key.rewrapped', { org_id: row.org_id, actor, root_key_id: outcome.to });
      });
    } catch (error) {
      // Replaced meanwhile by a value this ring does not open.
      if (!(error instanceof SealedDataError)) throw error;
      unreadableOne(row);
    }
  }
  const unreadable = Object.values(unreadableByKey).reduce((sum, n) => sum + n, 0);
  const used: { root_key_id: string }[] = await dataSource.query(`SELECT DISTINCT root_key_id FROM vault.data_keys`);
  const usedIds = new Set(used.map((u) => u.root_key_id));
  return {
    activeKeyId,
    rewrapped,
    unchanged: rows.length - rewrapped - unreadable,
    unusedKeyIds: ring.map((k) => k.id).filter((id) => id !== activeKeyId && !usedIds.has(id)),
    unreadableByKey,
    unreadable,
  };
}
