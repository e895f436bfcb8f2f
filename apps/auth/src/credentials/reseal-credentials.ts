import { credentialSecretAad } from '@meter/contracts';
import { activeKey, associatedData, needsReseal, reseal, sealedKeyId, type KeyRing } from '@meter/crypto';
import type { DataSource } from 'typeorm';
import { appendEvents, assertUpdated, ConcurrencyConflict } from '../events/event-store';
import { newEvent } from '../events/new-event';

export interface ResealReport {
  activeKey: string;
  resealed: number;
  /** Stored secrets per key id after the run; only the active key should remain. */
  sealedByKey: Record<string, number>;
}

interface SealedRow {
  id: string;
  org_id: string;
  access_key: string;
  sealed_secret: string;
  version: number;
}

/**
 * Re-seals every stored credential secret that is not under the ring's
 * active key, one credential per transaction with a
 * `credential.secret_resealed` event, so the gateways follow. Safe to
 * re-run; a credential changed meanwhile is read again.
 */
export async function resealCredentials(dataSource: DataSource, ring: KeyRing): Promise<ResealReport> {
  const active = activeKey(ring).id;
  let resealed = 0;
  for (let attempt = 0; attempt < 3; attempt++) {
    const rows = (await dataSource.query(
      'SELECT id, org_id, access_key, sealed_secret, version FROM auth.credentials WHERE sealed_secret IS NOT NULL ORDER BY id',
    )) as SealedRow[];
    const stale = rows.filter((row) => needsReseal(ring, row.sealed_secret));
    if (!stale.length) break;
    for (const row of stale) {
      try {
        if (await resealOne(dataSource, ring, row)) resealed += 1;
      } catch (error) {
        if (!(error instanceof ConcurrencyConflict)) throw error;
      }
    }
  }
  return { activeKey: active, resealed, sealedByKey: await sealedByKey(dataSource) };
}

/** How many stored secrets each key id seals (for `--check`, and before removing a key). */
export async function sealedByKey(dataSource: DataSource): Promise<Record<string, number>> {
  const rows = (await dataSource.query('SELECT sealed_secret FROM auth.credentials WHERE sealed_secret IS NOT NULL')) as { sealed_secret: string }[];
  const counts: Record<string, number> = {};
  for (const row of rows) {
    const id = sealedKeyId(row.sealed_secret);
    counts[id] = (counts[id] ?? 0) + 1;
  }
  return counts;
}

async function resealOne(dataSource: DataSource, ring: KeyRing, row: SealedRow): Promise<boolean> {
  const sealed = reseal(ring, row.sealed_secret, associatedData(credentialSecretAad(row.org_id, row.id)));
  return dataSource.transaction(async (manager) => {
    assertUpdated(
      await manager.query(
        'UPDATE auth.credentials SET sealed_secret = $3, version = version + 1 WHERE id = $1 AND version = $2 AND sealed_secret IS NOT NULL',
        [row.id, row.version, sealed],
      ),
      row.id,
    );
    await appendEvents(manager, [
      newEvent(
        'credential.secret_resealed',
        { aggregateId: row.id, orgId: row.org_id, version: row.version + 1 },
        { credential_id: row.id, access_key: row.access_key, sealed_secret: sealed },
      ),
    ]);
    return true;
  });
}
