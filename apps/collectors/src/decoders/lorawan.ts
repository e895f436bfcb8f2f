import { DEFAULT_TIME_POINTER, DEFAULT_VALUE_POINTER, type CollectorMapping } from '@meter/contracts';
import { registerValue, timestamp } from './fields';
import { atPointer, isObject } from './json-body';
import { invalid, type Decoded } from './uplink';

/** A DevEUI: 16 hex digits, kept in lower case. */
export const DEV_EUI = /^[0-9a-fA-F]{16}$/;

/**
 * The reading of a network server's uplink (chirpstack, ttn): the register
 * at the mapping's pointer in the decoded payload, in the mapping's unit; the
 * time from the payload's own time (the device's) when present, else the
 * network server's.
 */
export function lorawanUplink(
  devEui: unknown,
  decoded: unknown,
  decodedField: string,
  serverTime: { value: unknown; field: string } | undefined,
  receivedAt: number,
  mapping: CollectorMapping,
): Decoded {
  if (typeof devEui !== 'string' || !DEV_EUI.test(devEui))
    return invalid(`${devEui === undefined ? 'the DevEUI is missing' : 'the DevEUI must be 16 hex digits'}`);
  if (!isObject(decoded)) return invalid(`${decodedField}: no decoded payload (configure a payload codec or formatter for the device)`);
  const valuePointer = mapping.value ?? DEFAULT_VALUE_POINTER;
  const value = registerValue(atPointer(decoded, valuePointer), `${decodedField}${valuePointer}`);
  if (!value.ok) return invalid(value.reason);
  const timePointer = mapping.time ?? DEFAULT_TIME_POINTER;
  const deviceTime = atPointer(decoded, timePointer);
  let readAt: string;
  if (deviceTime !== undefined) {
    const time = timestamp(deviceTime, `${decodedField}${timePointer}`);
    if (!time.ok) return invalid(time.reason);
    readAt = time.value;
  } else if (serverTime && serverTime.value !== undefined) {
    const time = timestamp(serverTime.value, serverTime.field);
    if (!time.ok) return invalid(time.reason);
    readAt = time.value;
  } else {
    readAt = new Date(receivedAt).toISOString();
  }
  return {
    kind: 'uplink',
    uplink: {
      device: { kind: 'dev_eui', devEui: devEui.toLowerCase() },
      readings: [{ read_at: readAt, value: value.value, channel: 1, unit: mapping.unit ?? 'm³' }],
      alarms: [],
    },
  };
}
