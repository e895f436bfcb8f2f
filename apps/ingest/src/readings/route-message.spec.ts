import { describe, expect, it } from 'vitest';
import { routeMessage } from './route-message';
import { isTransientDatabaseError, retryDelayMs } from './transient-error';

const NOW = Date.UTC(2026, 10, 21, 12);
const msg = (subject: string, payload: unknown) => ({
  subject,
  data: new TextEncoder().encode(typeof payload === 'string' ? payload : JSON.stringify(payload)),
  seq: 7,
  receivedAt: NOW,
});

describe('routeMessage', () => {
  it('accepts one reading or an array, string or number values, Z or offsets, channel default 1', () => {
    const single = routeMessage(msg('meter.readings.acme.42', { read_at: '2026-11-21T10:00:00+05:30', value: '12.500' }), NOW);
    expect(single).toEqual({
      kind: 'readings',
      rows: [{ orgId: 'acme', deviceId: 42, channel: 1, readAt: Date.UTC(2026, 10, 21, 4, 30), value: 12.5, seq: 7 }],
    });
    const many = routeMessage(msg('meter.readings.acme.42', [{ read_at: '2026-11-21T10:00:00.250Z', value: 3, channel: 2 }]), NOW);
    expect(many).toMatchObject({ kind: 'readings', rows: [{ channel: 2, readAt: Date.UTC(2026, 10, 21, 10, 0, 0, 250), value: 3 }] });
  });

  it('accepts a device registration with defaults left to the store', () => {
    expect(routeMessage(msg('meter.devices.acme.1', { name: 'Kitchen', time_zone: 'Asia/Kolkata' }), NOW)).toMatchObject({
      kind: 'device',
      update: { orgId: 'acme', deviceId: 1, seq: 7, device: { name: 'Kitchen', time_zone: 'Asia/Kolkata' } },
    });
  });

  it('accepts a device alarm, channel default 1, and dead-letters a bad one with the reason', () => {
    expect(routeMessage(msg('meter.alarms.acme.3', { code: 'TAMPER', state: 'raised', at: '2026-11-21T10:00:00Z' }), NOW)).toEqual({
      kind: 'alarm',
      update: { orgId: 'acme', deviceId: 3, seq: 7, alarm: { code: 'TAMPER', state: 'raised', at: Date.UTC(2026, 10, 21, 10), channel: 1 } },
    });
    expect(routeMessage(msg('meter.alarms.acme.3', { code: 'FIRE', state: 'raised', at: '2026-11-21T10:00:00Z' }), NOW)).toMatchObject({
      kind: 'dead',
      deadLetterKind: 'alarms',
      reason: expect.stringMatching(/^code: /),
    });
    expect(routeMessage(msg('meter.alarms.acme.3', { code: 'DRY', state: 'open', at: '2026-11-21T10:00:00Z' }), NOW)).toMatchObject({
      kind: 'dead',
      reason: expect.stringMatching(/^state: /),
    });
    expect(routeMessage(msg('meter.alarms.acme.3', { code: 'DRY', state: 'raised', at: '2026-11-24T10:00:00Z' }), NOW)).toMatchObject({
      kind: 'dead',
      reason: 'at is more than 24 h in the future',
    });
  });

  it.each([
    ['meter.readings.acme.0', { read_at: '2026-11-21T10:00:00Z', value: 1 }, 'unknown', /device_id/],
    ['meter.readings.acme.1.2', { read_at: '2026-11-21T10:00:00Z', value: 1 }, 'unknown', /subject/],
    ['meter.readings.ac me.1', { read_at: '2026-11-21T10:00:00Z', value: 1 }, 'unknown', /org_id/],
    ['meter.readings.acme.1', '{', 'readings', /JSON/],
    ['meter.readings.acme.1', [], 'readings', /payload/],
    ['meter.readings.acme.1', { read_at: '2026-11-21T10:00:00', value: 1 }, 'readings', /RFC 3339/],
    ['meter.readings.acme.1', { read_at: '2026-02-30T10:00:00Z', value: 1 }, 'readings', /read_at/],
    ['meter.readings.acme.1', { read_at: '2026-04-31T10:00:00+02:00', value: 1 }, 'readings', /read_at/],
    ['meter.readings.acme.1', { read_at: '2026-04-01T24:00:00Z', value: 1 }, 'readings', /read_at/],
    ['meter.readings.acme.1', { read_at: '2026-04-01T23:60:00Z', value: 1 }, 'readings', /read_at/],
    ['meter.readings.acme.1', { read_at: '2026-11-21T10:00:00Z', value: -1 }, 'readings', /value/],
    ['meter.readings.acme.1', { read_at: '2026-11-21T10:00:00Z', value: '1e3' }, 'readings', /value/],
    ['meter.readings.acme.1', { read_at: '2026-11-21T10:00:00Z', value: 1, channel: 0 }, 'readings', /channel/],
    ['meter.readings.acme.1', { read_at: '2026-11-23T10:00:00Z', value: 1 }, 'readings', /future/],
    ['meter.devices.acme.1', { channels: 2 }, 'devices', /name/],
    ['meter.devices.acme.1', { name: 'x', time_zone: 'Mars/Olympus' }, 'devices', /time_zone/],
  ])('dead-letters %s %j', (subject, payload, kind, reason) => {
    const routed = routeMessage(msg(subject, payload), NOW);
    expect(routed.kind).toBe('dead');
    if (routed.kind !== 'dead') return;
    expect(routed.deadLetterKind).toBe(kind);
    expect(routed.reason).toMatch(reason);
  });
});

describe('dead-letter causes', () => {
  it.each([
    ['meter.readings.acme.0', { read_at: '2026-11-21T10:00:00Z', value: 1 }, 'invalid_subject'],
    ['meter.readings.acme.1', '{', 'not_json'],
    ['meter.readings.acme.1', { read_at: '2026-11-21T10:00:00Z', value: -1 }, 'invalid_message'],
    ['meter.devices.acme.1', { channels: 2 }, 'invalid_message'],
    ['meter.readings.acme.1', { read_at: '2026-11-23T10:00:00Z', value: 1 }, 'future_timestamp'],
    ['meter.alarms.acme.3', { code: 'DRY', state: 'raised', at: '2026-11-24T10:00:00Z' }, 'future_timestamp'],
  ])('names %s %j %s', (subject, payload, cause) => {
    expect(routeMessage(msg(subject, payload), NOW)).toMatchObject({ kind: 'dead', cause });
  });
});

describe('transient database errors', () => {
  it.each([
    [{ code: '40P01' }, true],
    [{ code: '08006' }, true],
    [{ code: '57P01' }, true],
    [new Error('Connection terminated unexpectedly'), true],
    [{ code: '22003' }, false],
    [{ code: '23505' }, false],
  ])('%j -> %s', (error, transient) => expect(isTransientDatabaseError(error)).toBe(transient));

  it('backs off doubling up to 30 s', () => {
    expect([1, 2, 3, 8, 20].map(retryDelayMs)).toEqual([250, 500, 1000, 30_000, 30_000]);
  });
});
