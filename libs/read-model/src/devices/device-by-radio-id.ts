import { parseUnit, type Unit } from '@meter/consumption';
import type { Queryable } from '../records';

/** A radio id of a device (`external_ids`): a LoRaWAN DevEUI in lower case or an 8-digit wM-Bus id. */
export type RadioId = { kind: 'dev_eui'; id: string } | { kind: 'wmbus_id'; id: string };

export interface DeviceOfRadioId {
  deviceId: number;
  unit: Unit;
}

/** The device of an organization that carries this radio id (unique per organization), or null; one index lookup. */
export async function findDeviceByRadioId(db: Queryable, orgId: string, radio: RadioId): Promise<DeviceOfRadioId | null> {
  const column = radio.kind === 'dev_eui' ? 'dev_eui' : 'wmbus_id';
  const [row] = (await db.query(`SELECT device_id, unit FROM ingest.devices WHERE org_id = $1 AND ${column} = $2`, [orgId, radio.id])) as {
    device_id: string;
    unit: string;
  }[];
  return row ? { deviceId: Number(row.device_id), unit: parseUnit(row.unit) ?? 'm³' } : null;
}
