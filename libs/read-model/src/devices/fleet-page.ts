import type { DeviceRecord, Queryable } from '../records';
import { DEVICE_COLUMNS, toDevice, type DeviceRow } from './device-columns';

/** What the fleet list shows of a device beside its record: its radio ids. */
export interface FleetDevice extends DeviceRecord {
  externalIds: { dev_eui: string | null; wmbus_id: string | null };
}

/**
 * One page of the organization's devices ordered by id after `afterId`
 * (keyset: one index range whatever the page), optionally those whose name
 * contains `search` (any letter case) or whose id starts with it; one more is
 * read to know if more exist. Only `ingest.devices` is read: a fleet of
 * 10,000 costs a page of 50 what a fleet of 50 does.
 */
export async function fleetPage(
  db: Queryable,
  orgId: string,
  query: { afterId: number; limit: number; search?: string },
): Promise<{ devices: FleetDevice[]; hasMore: boolean }> {
  const search = query.search?.trim() || null;
  // `d.device_id`, the table's column: a bare `device_id` in ORDER BY is the float8 output column, which no
  // index orders, so every device of the organization would be read and sorted.
  const rows: FleetRow[] = await db.query(
    `SELECT ${DEVICE_COLUMNS}, dev_eui, wmbus_id FROM ingest.devices d
     WHERE org_id = $1 AND device_id > $2
       AND ($3::text IS NULL OR strpos(lower(name), lower($3)) > 0 OR device_id::text LIKE replace(replace(replace($3, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%')
     ORDER BY d.device_id LIMIT $4`,
    [orgId, query.afterId, search, query.limit + 1],
  );
  return { devices: rows.slice(0, query.limit).map(toFleetDevice), hasMore: rows.length > query.limit };
}

/** One device of the organization as the fleet list shows it, or null. */
export async function fleetDevice(db: Queryable, orgId: string, deviceId: number): Promise<FleetDevice | null> {
  const [row]: FleetRow[] = await db.query(`SELECT ${DEVICE_COLUMNS}, dev_eui, wmbus_id FROM ingest.devices WHERE org_id = $1 AND device_id = $2`, [
    orgId,
    deviceId,
  ]);
  return row ? toFleetDevice(row) : null;
}

type FleetRow = DeviceRow & { dev_eui: string | null; wmbus_id: string | null };

const toFleetDevice = (r: FleetRow): FleetDevice => ({ ...toDevice(r), externalIds: { dev_eui: r.dev_eui, wmbus_id: r.wmbus_id } });
