import { alarmMessage, DEVICE_ID, readingMessage, readReadingMessage } from '@meter/contracts';
import { z } from 'zod';
import { describeIssues } from './fields';
import { isObject, json, jsonObject } from './json-body';
import { invalid, type Decoded, type DecodedAlarm, type DecodedReading, type UplinkInput } from './uplink';

const MAX_ALARMS = 100;
const alarms = z.preprocess((payload) => (Array.isArray(payload) ? payload : [payload]), z.array(alarmMessage).min(1).max(MAX_ALARMS));

/**
 * Section 3's messages (docs/collectors.md, "native"): over MQTT, a reading
 * object or array on `readings/<device_id>` and an alarm object (or array)
 * on `alarms/<device_id>`; over HTTP, `{device_id, readings?, alarms?}`.
 * Validated by the bus's own schemas, so what ingest would refuse is refused here.
 */
export function decodeNative(input: UplinkInput): Decoded {
  if (input.topic === undefined) return decodeNativeBody(input.body);
  const [kind, device] = input.topic.split('/');
  const deviceId = deviceIdOf(device);
  if (deviceId === undefined) return invalid(`topic ${input.topic}: the device id must be a positive integer`);
  const body = json(input.body);
  if (!body.ok) return invalid(body.reason);
  if (kind === 'readings') {
    const readings = readingsOf(body.value, 'body');
    return readings.ok ? uplink(deviceId, readings.value, []) : invalid(readings.reason);
  }
  const parsed = alarmsOf(body.value, 'body');
  return parsed.ok ? uplink(deviceId, [], parsed.value) : invalid(parsed.reason);
}

const nativeBody = z.strictObject({
  device_id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  readings: z.unknown().optional(),
  alarms: z.unknown().optional(),
});

function decodeNativeBody(raw: Uint8Array): Decoded {
  const body = jsonObject(raw);
  if (!body.ok) return invalid(body.reason);
  const parsed = nativeBody.safeParse(body.value);
  if (!parsed.success) return invalid(describeIssues(parsed.error));
  const { device_id, readings, alarms } = parsed.data;
  if (readings === undefined && alarms === undefined) return invalid('body: readings or alarms is required');
  const decodedReadings = readings === undefined ? { ok: true as const, value: [] } : readingsOf(readings, 'readings', false);
  if (!decodedReadings.ok) return invalid(decodedReadings.reason);
  const decodedAlarms = alarms === undefined ? { ok: true as const, value: [] } : alarmsOf(alarms, 'alarms', false);
  if (!decodedAlarms.ok) return invalid(decodedAlarms.reason);
  return uplink(device_id, decodedReadings.value, decodedAlarms.value);
}

function readingsOf(payload: unknown, field: string, single = true): { ok: true; value: DecodedReading[] } | { ok: false; reason: string } {
  if (!single && !Array.isArray(payload)) return { ok: false, reason: `${field}: must be an array of readings` };
  const missing = (Array.isArray(payload) ? payload : [payload]).findIndex((item) => isObject(item) && item.value === undefined);
  if (missing >= 0) return { ok: false, reason: `${Array.isArray(payload) ? `${field}.${missing}.` : ''}value: no register value` };
  // The schema's rules by hand (ingest's reader, without zod's work per item); zod words a refusal.
  let channels = readReadingMessage(payload, (_readAt, _value, channel) => channel);
  if (channels === undefined) {
    const parsed = readingMessage.safeParse(payload);
    if (!parsed.success) return { ok: false, reason: describeIssues(parsed.error, Array.isArray(payload) ? field : '', !Array.isArray(payload)) };
    channels = parsed.data.map((item) => item.channel);
  }
  // The read time is kept as the collector wrote it.
  const items = (Array.isArray(payload) ? payload : [payload]) as { read_at: string; value: number | string }[];
  return { ok: true, value: items.map((item, i) => ({ read_at: item.read_at, value: item.value, channel: channels[i] })) };
}

function alarmsOf(payload: unknown, field: string, single = true): { ok: true; value: DecodedAlarm[] } | { ok: false; reason: string } {
  if (!single && !Array.isArray(payload)) return { ok: false, reason: `${field}: must be an array of alarms` };
  const parsed = alarms.safeParse(payload);
  if (!parsed.success) return { ok: false, reason: describeIssues(parsed.error, Array.isArray(payload) ? field : '', !Array.isArray(payload)) };
  const items = (Array.isArray(payload) ? payload : [payload]) as { at: string }[];
  return {
    ok: true,
    value: parsed.data.map((a, i) => ({ code: a.code, state: a.state, at: items[i].at, channel: a.channel, ...(a.message ? { message: a.message } : {}) })),
  };
}

function deviceIdOf(text: string | undefined): number | undefined {
  if (text === undefined || !DEVICE_ID.test(text)) return undefined;
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : undefined;
}

function uplink(deviceId: number, readings: DecodedReading[], alarms: DecodedAlarm[]): Decoded {
  return { kind: 'uplink', uplink: { device: { kind: 'device_id', deviceId }, readings, alarms } };
}
