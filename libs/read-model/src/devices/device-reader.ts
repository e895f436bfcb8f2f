import type { DeviceRecord, Queryable } from '../records';
import { DEVICE_COLUMNS, toDevice, type DeviceRow } from './device-columns';

/** The organization's devices with the given ids; ids of other organizations are simply absent. */
export async function findDevices(db: Queryable, orgId: string, deviceIds: readonly number[]): Promise<Map<number, DeviceRecord>> {
  const rows: DeviceRow[] = await db.query(`SELECT ${DEVICE_COLUMNS} FROM ingest.devices WHERE org_id = $1 AND device_id = ANY($2::bigint[])`, [
    orgId,
    deviceIds,
  ]);
  return new Map(rows.map((r) => [r.device_id, toDevice(r)]));
}

/** One page of the organization's devices ordered by id, after `afterId`; asks for one more to know if more exist. */
export async function listDevices(db: Queryable, orgId: string, afterId: number, limit: number): Promise<{ devices: DeviceRecord[]; hasMore: boolean }> {
  // `d.device_id`: a bare `device_id` in ORDER BY is the float8 output column, which no index orders (fleet-page.ts).
  const rows: DeviceRow[] = await db.query(
    `SELECT ${DEVICE_COLUMNS} FROM ingest.devices d WHERE org_id = $1 AND device_id > $2 ORDER BY d.device_id LIMIT $3`,
    [orgId, afterId, limit + 1],
  );
  return { devices: rows.slice(0, limit).map(toDevice), hasMore: rows.length > limit };
}
