import { describe, expect, it } from 'vitest';
import { decodeUplink, topicAllowed } from './decode';
import type { Decoded } from './uplink';

const mqtt = (topic: string, body: string): Decoded =>
  decodeUplink({ format: 'native', mapping: {}, topic, body: new TextEncoder().encode(body), receivedAt: 0 });
const http = (body: string): Decoded => decodeUplink({ format: 'native', mapping: {}, body: new TextEncoder().encode(body), receivedAt: 0 });

describe('native decoder', () => {
  it('takes section 3 readings on readings/<device_id>, one or many, keeping their text', () => {
    expect(mqtt('readings/42', '{"read_at":"2024-05-01T10:00:00+02:00","value":"12.345"}')).toEqual({
      kind: 'uplink',
      uplink: { device: { kind: 'device_id', deviceId: 42 }, readings: [{ read_at: '2024-05-01T10:00:00+02:00', value: '12.345', channel: 1 }], alarms: [] },
    });
    const many = mqtt('readings/7', '[{"read_at":"2024-05-01T10:00:00Z","value":1},{"read_at":"2024-05-01T11:00:00Z","value":2,"channel":2}]');
    expect(many.kind === 'uplink' && many.uplink.readings.map((r) => r.channel)).toEqual([1, 2]);
  });

  it('takes section 9 alarms on alarms/<device_id>', () => {
    expect(mqtt('alarms/42', '{"code":"TAMPER","state":"raised","at":"2024-05-01T10:00:00Z"}')).toEqual({
      kind: 'uplink',
      uplink: {
        device: { kind: 'device_id', deviceId: 42 },
        readings: [],
        alarms: [{ code: 'TAMPER', state: 'raised', at: '2024-05-01T10:00:00Z', channel: 1 }],
      },
    });
  });

  it('takes the HTTP body {device_id, readings, alarms}', () => {
    const decoded = http(
      '{"device_id":5,"readings":[{"read_at":"2024-05-01T10:00:00Z","value":3}],"alarms":[{"code":"DRY","state":"cleared","at":"2024-05-01T10:00:00Z","message":"wet"}]}',
    );
    expect(decoded).toEqual({
      kind: 'uplink',
      uplink: {
        device: { kind: 'device_id', deviceId: 5 },
        readings: [{ read_at: '2024-05-01T10:00:00Z', value: 3, channel: 1 }],
        alarms: [{ code: 'DRY', state: 'cleared', at: '2024-05-01T10:00:00Z', channel: 1, message: 'wet' }],
      },
    });
  });

  it.each([
    ['not JSON', () => mqtt('readings/1', 'not json'), 'body is not valid UTF-8 JSON'],
    ['no register value', () => mqtt('readings/1', '{"read_at":"2024-05-01T10:00:00Z"}'), 'value: no register value'],
    ['a wrong type', () => mqtt('readings/1', '{"read_at":"2024-05-01T10:00:00Z","value":true}'), 'value: must be a number >= 0 or a decimal string'],
    ['an unparsable timestamp', () => mqtt('readings/1', '{"read_at":"01/05/2024","value":1}'), 'read_at: must be an RFC 3339 timestamp with Z or an offset'],
    ['a device id that is no integer', () => mqtt('readings/abc', '{}'), 'topic readings/abc: the device id must be a positive integer'],
    [
      'an unknown alarm code',
      () => mqtt('alarms/1', '{"code":"FIRE","state":"raised","at":"2024-05-01T10:00:00Z"}'),
      expect.stringMatching(/^code: Invalid option/),
    ],
    ['an HTTP body without device_id', () => http('{"readings":[]}'), 'device_id: Invalid input: expected number, received undefined'],
    ['an HTTP body with neither', () => http('{"device_id":1}'), 'body: readings or alarms is required'],
    ['an HTTP body with an unknown field', () => http('{"device_id":1,"reading":[]}'), expect.stringMatching(/Unrecognized key: "reading"/)],
    [
      'HTTP readings that are no array',
      () => http('{"device_id":1,"readings":{"read_at":"2024-05-01T10:00:00Z","value":1}}'),
      'readings: must be an array of readings',
    ],
    [
      'an HTTP reading of a wrong type',
      () => http('{"device_id":1,"readings":[{"read_at":"2024-05-01T10:00:00Z","value":"ten"}]}'),
      'readings.0.value: must be a non-negative decimal string',
    ],
  ])('refuses %s', (_case, run, reason) => {
    expect(run()).toEqual({ kind: 'invalid', reason });
  });
});

describe('topics of a format', () => {
  it.each([
    ['native', 'readings/1', true],
    ['native', 'alarms/1', true],
    ['native', 'devices/1', false],
    ['native', 'readings/1/extra', false],
    ['wmbusmeters', 'wmbusmeters/MyTapWater', true],
    ['wmbusmeters', 'anything/at/all', true],
    ['chirpstack', 'application/17c8/device/0101010101010101/event/up', true],
    ['chirpstack', 'application/17c8/device/0101010101010101/command/down', false],
    ['ttn', 'v3/app1@ttn/devices/dev1/up', true],
    ['ttn', 'v3/app1@ttn/devices/dev1/down/queued', true],
    ['ttn', 'readings/1', false],
  ] as const)('%s: %s allowed %s', (format, topic, allowed) => {
    expect(topicAllowed(format, topic)).toBe(allowed);
  });
});
