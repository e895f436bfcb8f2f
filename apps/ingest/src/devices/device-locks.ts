import type { Queryable } from '@meter/read-model';
import { deviceLockKeys } from '../reading-store/reading-batch';

/**
 * Takes the devices' transaction-level advisory locks, the one lock every
 * writer of a device's readings holds (ingest's batches, the backfill of the
 * compact store, the rebuild, the silence check). All of them in one
 * statement in ascending hash order, so two lockers never deadlock.
 */
export async function lockDevices(runner: Queryable, devices: Iterable<{ orgId: string; deviceId: number }>): Promise<void> {
  // pg_advisory_xact_lock is volatile, so it runs after the sort: ascending hash order.
  await runner.query(`SELECT pg_advisory_xact_lock(h) FROM (SELECT DISTINCT hashtextextended(k, 0) AS h FROM unnest($1::text[]) AS k ORDER BY h) AS s`, [
    deviceLockKeys(devices),
  ]);
}
