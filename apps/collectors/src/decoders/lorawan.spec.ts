import { describe, expect, it } from 'vitest';
import type { CollectorMapping } from '@meter/contracts';
import { decodeUplink } from './decode';
import type { Decoded } from './uplink';

/** ChirpStack v4's documented `up` event (JSON marshaler), with the `object` a device-profile codec adds. */
const chirpstackUp = (object: unknown, extra: Record<string, unknown> = {}) => ({
  deduplicationId: '3ac7e3c4-4401-4b8d-9386-a5c902f9202d',
  time: '2022-07-18T09:34:15.775023242+00:00',
  deviceInfo: {
    tenantId: '52f14cd4-c6f1-4fbd-8f87-4025e1d49242',
    tenantName: 'ChirpStack',
    applicationId: '17c82e96-be03-4f38-aef3-f83d48582d97',
    applicationName: 'Test application',
    deviceProfileId: '14855bf7-d10d-4aee-b618-ebfcb64dc7ad',
    deviceProfileName: 'Test device-profile',
    deviceName: 'Test device',
    devEui: '0101010101010101',
    tags: { key: 'value' },
  },
  devAddr: '00189440',
  dr: 1,
  fPort: 1,
  data: 'qg==',
  rxInfo: [
    {
      gatewayId: '0016c001f153a14c',
      uplinkId: 4217106255,
      rssi: -36,
      snr: 10.5,
      context: 'E3OWOQ==',
      metadata: { region_name: 'eu868', region_common_name: 'EU868' },
    },
  ],
  txInfo: { frequency: 867100000, modulation: { lora: { bandwidth: 125000, spreadingFactor: 11, codeRate: 'CR_4_5' } } },
  ...(object === undefined ? {} : { object }),
  ...extra,
});

/** The Things Stack's documented uplink message (data formats), with a payload formatter's `decoded_payload`. */
const ttnUplink = (decoded: unknown, extra: Record<string, unknown> = {}) => ({
  end_device_ids: {
    device_id: 'dev1',
    application_ids: { application_id: 'app1' },
    dev_eui: '0004A30B001C0530',
    join_eui: '800000000000000C',
    dev_addr: '00BCB929',
  },
  correlation_ids: ['as:up:01...'],
  received_at: '2020-02-12T15:15:45.787Z',
  uplink_message: {
    session_key_id: 'AXBSH1Pk6Z0G166...',
    f_port: 15,
    f_cnt: 7398,
    frm_payload: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==',
    ...(decoded === undefined ? {} : { decoded_payload: decoded }),
    rx_metadata: [
      {
        gateway_ids: { gateway_id: 'gtw1', eui: '9C5C8E00001A05C4' },
        time: '2020-02-12T15:15:45.787Z',
        timestamp: 2463457000,
        rssi: -35,
        channel_rssi: -35,
        snr: 5.2,
      },
    ],
    settings: {
      data_rate: { lora: { bandwidth: 125000, spreading_factor: 7 } },
      coding_rate: '4/6',
      frequency: '868500000',
      timestamp: 2463457000,
      time: '2020-02-12T15:15:45.787Z',
    },
    received_at: '2020-02-12T15:15:45.787Z',
    consumed_airtime: '0.056576s',
    ...extra,
  },
});

const RECEIVED = Date.parse('2024-06-01T12:00:00.000Z');
const decode = (format: 'chirpstack' | 'ttn', body: unknown, options: { mapping?: CollectorMapping; topic?: string; event?: string } = {}): Decoded =>
  decodeUplink({
    format,
    mapping: options.mapping ?? {},
    topic: options.topic,
    event: options.event,
    body: new TextEncoder().encode(JSON.stringify(body)),
    receivedAt: RECEIVED,
  });
const reading = (decoded: Decoded) => (decoded.kind === 'uplink' ? { device: decoded.uplink.device, readings: decoded.uplink.readings } : decoded);

describe('chirpstack decoder', () => {
  it('reads the DevEUI, the event time and /volume in m³ from an up event', () => {
    expect(reading(decode('chirpstack', chirpstackUp({ volume: 12.345 }), { event: 'up' }))).toEqual({
      device: { kind: 'dev_eui', devEui: '0101010101010101' },
      readings: [{ read_at: '2022-07-18T09:34:15.775023242+00:00', value: 12.345, channel: 1, unit: 'm³' }],
    });
  });

  it("takes the mapping's pointer and unit, and the device's own time when the codec gives one", () => {
    const mapping: CollectorMapping = { value: '/meter/index_l', unit: 'L', time: '/meter/at' };
    const decoded = decode('chirpstack', chirpstackUp({ meter: { index_l: 12345, at: '2022-07-18T09:00:00Z' } }), {
      mapping,
      topic: 'application/17c8/device/0101010101010101/event/up',
    });
    expect(reading(decoded)).toEqual({
      device: { kind: 'dev_eui', devEui: '0101010101010101' },
      readings: [{ read_at: '2022-07-18T09:00:00Z', value: 12345, channel: 1, unit: 'L' }],
    });
  });

  it('uses the receive time when the event has none', () => {
    const decoded = decode('chirpstack', chirpstackUp({ volume: 1 }, { time: undefined }));
    expect(decoded.kind === 'uplink' && decoded.uplink.readings[0].read_at).toBe('2024-06-01T12:00:00.000Z');
  });

  it.each([
    ['an HTTP join event', { event: 'join' }],
    ['an MQTT status event', { topic: 'application/17c8/device/0101010101010101/event/status' }],
  ])('acknowledges and ignores %s', (_case, options) => {
    expect(decode('chirpstack', { deviceInfo: {} }, options).kind).toBe('ignored');
  });

  it.each([
    ['no decoded object', chirpstackUp(undefined), 'object: no decoded payload (configure a payload codec or formatter for the device)'],
    ['no register value', chirpstackUp({ temperature: 12 }), 'object/volume: no register value'],
    ['a wrong type', chirpstackUp({ volume: 'lots' }), 'object/volume: must be a non-negative decimal string'],
    ['an unparsable time', chirpstackUp({ volume: 1 }, { time: '18/07/2022' }), 'time: "18/07/2022" must be an RFC 3339 timestamp with Z or an offset'],
    ['no deviceInfo', { object: { volume: 1 } }, 'deviceInfo: is required (a ChirpStack v4 up event)'],
    ['a bad DevEUI', { ...chirpstackUp({ volume: 1 }), deviceInfo: { devEui: 'AQEBAQEBAQE=' } }, 'the DevEUI must be 16 hex digits'],
  ])('refuses %s', (_case, body, reason) => {
    expect(decode('chirpstack', body)).toEqual({ kind: 'invalid', reason });
  });
});

describe('ttn decoder', () => {
  it('reads end_device_ids.dev_eui, uplink_message.received_at and the decoded payload at /volume', () => {
    expect(reading(decode('ttn', ttnUplink({ volume: 42.5 }), { topic: 'v3/app1@ttn/devices/dev1/up' }))).toEqual({
      device: { kind: 'dev_eui', devEui: '0004a30b001c0530' },
      readings: [{ read_at: '2020-02-12T15:15:45.787Z', value: 42.5, channel: 1, unit: 'm³' }],
    });
  });

  it("prefers the device's time in the decoded payload, and converts nothing itself", () => {
    const decoded = decode('ttn', ttnUplink({ volume: 100, time: '2020-02-12T15:00:00+01:00' }), { mapping: { unit: 'gal' } });
    expect(reading(decoded)).toEqual({
      device: { kind: 'dev_eui', devEui: '0004a30b001c0530' },
      readings: [{ read_at: '2020-02-12T15:00:00+01:00', value: 100, channel: 1, unit: 'gal' }],
    });
  });

  it('acknowledges and ignores the webhook’s other messages and topics', () => {
    expect(decode('ttn', { end_device_ids: { dev_eui: '0004A30B001C0530' }, join_accept: { session_key_id: 'x' } }).kind).toBe('ignored');
    expect(decode('ttn', ttnUplink({ volume: 1 }), { topic: 'v3/app1@ttn/devices/dev1/join' }).kind).toBe('ignored');
  });

  it.each([
    ['no decoded payload', ttnUplink(undefined), 'uplink_message.decoded_payload: no decoded payload (configure a payload codec or formatter for the device)'],
    ['a string register', ttnUplink({ volume: '1,5' }), 'uplink_message.decoded_payload/volume: must be a non-negative decimal string'],
    [
      'an unparsable device time',
      ttnUplink({ volume: 1, time: 1581520545 }),
      'uplink_message.decoded_payload/time: must be an RFC 3339 timestamp, not a number',
    ],
    ['not an uplink message', { end_device_ids: { dev_eui: '0004A30B001C0530' } }, 'uplink_message: is required (an uplink message of The Things Stack)'],
  ])('refuses %s', (_case, body, reason) => {
    expect(decode('ttn', body)).toEqual({ kind: 'invalid', reason });
  });
});
