import type { QueryRunner } from 'typeorm';
import type { Queryable } from '@meter/read-model';
import { rebuildDeviceAlerts } from '../alerts/rebuild-alerts';
import { lockDevices } from '../devices/device-locks';
import { rebuildReadingDays } from '../reading-store/day-rebuild';

/**
 * Recomputes every stored interval and running total of one device from its
 * stored register values, under the device's lock (a running ingest waits
 * for it, it never races it). The values are the source of truth; the
 * derived columns can always be rebuilt from them, e.g. after a fix to the
 * interval rules. The device's reading alert episodes are re-derived from
 * the rebuilt readings too (docs/alerts-and-webhooks.md). Returns the number
 * of reading rows that changed.
 */
export async function rebuildDevice(runner: QueryRunner, orgId: string, deviceId: number): Promise<number> {
  await lockDevices(runner, [{ orgId, deviceId }]);
  const changed = await rebuildReadingDays(runner, orgId, deviceId);
  await rebuildDeviceAlerts(runner, orgId, deviceId);
  return changed;
}

/** The devices to rebuild: one organization's, or all. */
export async function devicesToRebuild(db: Queryable, orgId: string | undefined): Promise<{ orgId: string; deviceId: number }[]> {
  const rows: { org_id: string; device_id: number }[] = await db.query(
    `SELECT org_id, device_id::float8 AS device_id FROM ingest.devices WHERE $1::text IS NULL OR org_id = $1 ORDER BY org_id, device_id`,
    [orgId ?? null],
  );
  return rows.map((r) => ({ orgId: r.org_id, deviceId: r.device_id }));
}
