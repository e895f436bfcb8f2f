import { parseUnit, type Unit } from '@meter/consumption';
import { registerValue, timestamp, typeName } from './fields';
import { jsonObject } from './json-body';
import { statusAlarms } from './status-words';
import { invalid, type Decoded, type UplinkInput } from './uplink';

/** The 8-digit wM-Bus id wmbusmeters prints as `id`. */
export const WMBUS_ID = /^\d{8}$/;
/** `total_m3`, or another `total_<unit>` in one of the platform's units (`total_l`, `total_gal`, `total_ft3`, `total_ccf`). */
const TOTAL_FIELD = /^total_(m3|l|gal|ft3|ccf)$/i;

/**
 * A wmbusmeters telegram as its `--format=json` prints it (one object per
 * telegram, published by its MQTT shell command): `id`, `timestamp`, the
 * register from `total_m3` (or `total_<unit>`), and the status words of
 * `status`, `current_status` and `current_alarms` as device alarms.
 */
export function decodeWmbusmeters(input: UplinkInput): Decoded {
  const body = jsonObject(input.body);
  if (!body.ok) return invalid(body.reason);
  const telegram = body.value;
  if (typeof telegram.id !== 'string' || !WMBUS_ID.test(telegram.id)) {
    return invalid(
      telegram.id === undefined
        ? 'id: is required (the meter id wmbusmeters prints)'
        : `id: must be the meter's 8-digit wM-Bus id, not ${describe(telegram.id)}`,
    );
  }
  const time = timestamp(telegram.timestamp, 'timestamp');
  if (!time.ok) return invalid(telegram.timestamp === undefined ? 'timestamp: is required' : time.reason);
  const total = totalField(telegram);
  if (!total) return invalid('no register value: the telegram has no total_m3 (or total_<unit>) field');
  const value = registerValue(telegram[total.field], total.field);
  if (!value.ok) return invalid(value.reason);
  const alarms = statusAlarms([telegram.status, telegram.current_status, telegram.current_alarms], time.value);
  return {
    kind: 'uplink',
    uplink: {
      device: { kind: 'wmbus_id', wmbusId: telegram.id },
      readings: [{ read_at: time.value, value: value.value, channel: 1, unit: total.unit }],
      alarms: alarms ?? [],
      ...(alarms ? { alarmsAreStatus: true as const } : {}),
    },
  };
}

function totalField(telegram: Record<string, unknown>): { field: string; unit: Unit } | undefined {
  if (Object.hasOwn(telegram, 'total_m3')) return { field: 'total_m3', unit: 'm³' };
  const field = Object.keys(telegram).find((key) => TOTAL_FIELD.test(key));
  return field === undefined ? undefined : { field, unit: parseUnit(field.slice('total_'.length))! };
}

function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : typeName(value);
}
