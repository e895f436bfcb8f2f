import type { DataSource } from 'typeorm';
import type { KeyRing } from '@meter/crypto';
import { appendAudit } from '../audit/audit-outbox';
import { rewrapDataKey } from './data-keys';

export interface RewrapReport {
  activeKeyId: string;
  rewrapped: number;
  unchanged: number;
  /** Root key ids no wrapped data key names any more: safe to remove from the ring. */
  unusedKeyIds: string[];
}

/**
 * Step 3 of docs/keys.md for the vault: every data key not under the
 * ring's active key is unwrapped and wrapped again, one organization per
 * transaction with its audit event. Entries are not touched. Re-runnable.
 */
export async function rewrapDataKeys(dataSource: DataSource, ring: KeyRing, actor: string): Promise<RewrapReport> {
  const activeKeyId = ring[0]!.id;
  const orgs: { org_id: string }[] = await dataSource.query(`SELECT org_id FROM vault.data_keys WHERE root_key_id <> $1 ORDER BY org_id`, [activeKeyId]);
  let rewrapped = 0;
  for (const { org_id } of orgs) {
    await dataSource.transaction(async (manager) => {
      const outcome = await rewrapDataKey(manager, ring, org_id);
      if (!outcome.rewrapped) return;
      rewrapped += 1;
      await appendAudit(manager, 'data_key.rewrapped', { org_id, actor, root_key_id: outcome.to });
    });
  }
  const total: { count: string }[] = await dataSource.query(`SELECT count(*) AS count FROM vault.data_keys`);
  const used: { root_key_id: string }[] = await dataSource.query(`SELECT DISTINCT root_key_id FROM vault.data_keys`);
  const usedIds = new Set(used.map((u) => u.root_key_id));
  return {
    activeKeyId,
    rewrapped,
    unchanged: Number(total[0]?.count ?? 0) - rewrapped,
    unusedKeyIds: ring.map((k) => k.id).filter((id) => id !== activeKeyId && !usedIds.has(id)),
  };
}
