import type { QueryRunner } from 'typeorm';
import type { Queryable } from '@meter/read-model';
import { rebuildDeviceAlerts } from '../alerts/rebuild-alerts';

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
  await runner.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`${orgId}:${deviceId}`]);
  const result: [unknown[], number] = await runner.query(
    `WITH linked AS (
       SELECT channel, read_at, value, lag(read_at) OVER w AS prev, lag(value) OVER w AS prev_value
       FROM ingest.readings WHERE org_id = $1 AND device_id = $2
       WINDOW w AS (PARTITION BY channel ORDER BY read_at)
     ), intervals AS (
       SELECT channel, read_at, prev,
         CASE WHEN prev IS NULL OR value < prev_value THEN 0 ELSE value - prev_value END AS delta,
         coalesce(value < prev_value, false) AS reset
       FROM linked
     ), totals AS (
       SELECT *, sum(delta) OVER (PARTITION BY channel ORDER BY read_at) AS cum FROM intervals
     )
     UPDATE ingest.readings t SET prev_read_at = s.prev, delta = s.delta, reset = s.reset, cum = s.cum
     FROM totals s
     WHERE t.org_id = $1 AND t.device_id = $2 AND t.channel = s.channel AND t.read_at = s.read_at
       AND (t.prev_read_at IS DISTINCT FROM s.prev OR t.delta <> s.delta OR t.reset <> s.reset OR t.cum <> s.cum)`,
    [orgId, deviceId],
  );
  await rebuildDeviceAlerts(runner, orgId, deviceId);
  return Array.isArray(result) && typeof result[1] === 'number' ? result[1] : 0;
}

/** The devices to rebuild: one organization's, or all. */
export async function devicesToRebuild(db: Queryable, orgId: string | undefined): Promise<{ orgId: string; deviceId: number }[]> {
  const rows: { org_id: string; device_id: number }[] = await db.query(
    `SELECT org_id, device_id::float8 AS device_id FROM ingest.devices WHERE $1::text IS NULL OR org_id = $1 ORDER BY org_id, device_id`,
    [orgId ?? null],
  );
  return rows.map((r) => ({ orgId: r.org_id, deviceId: r.device_id }));
}
