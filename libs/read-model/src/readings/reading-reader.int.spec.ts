import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSource } from 'typeorm';
import { createDataSource } from '@meter/persistence';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import { deviceHistory } from '../device-history';
import { findDevices } from '../devices/device-reader';
import { consumptionInWindow, intervalsOverlapping } from './reading-reader';

const ORG = 'org_reader';

/**
 * The row-per-interval query `intervalsOverlapping` used before the packed form: its answers are the reference
 * (with an interval ending exactly at `from` included, as its reset belongs to the day starting there).
 */
async function rowQuery(ds: DataSource, deviceId: number, from: number, to: number) {
  const rows: { channel: number; start: number; end: number; delta: number; reset: boolean }[] = await ds.query(
    `SELECT channel, (extract(epoch from prev_read_at) * 1000)::float8 AS start, (extract(epoch from read_at) * 1000)::float8 AS "end", delta, reset
     FROM (
       SELECT channel, prev_read_at, read_at, delta, reset FROM ingest.readings
       WHERE org_id = $1 AND device_id = $2 AND read_at >= $3 AND read_at < $4 AND prev_read_at IS NOT NULL
       UNION ALL
       SELECT n.channel, n.prev_read_at, n.read_at, n.delta, n.reset
       FROM generate_series(1, (SELECT channels FROM ingest.devices WHERE org_id = $1 AND device_id = $2)) AS c(channel)
       CROSS JOIN LATERAL (SELECT * FROM ingest.readings r WHERE r.org_id = $1 AND r.device_id = $2 AND r.channel = c.channel AND r.read_at >= $4
                           ORDER BY r.read_at LIMIT 1) n
       WHERE n.prev_read_at < $4
     ) i ORDER BY channel, read_at`,
    [ORG, deviceId, new Date(from).toISOString(), new Date(to).toISOString()],
  );
  const byChannel = new Map<number, { start: number; end: number; delta: number; reset: boolean }[]>();
  for (const r of rows) byChannel.set(r.channel, [...(byChannel.get(r.channel) ?? []), { start: r.start, end: r.end, delta: r.delta, reset: r.reset }]);
  return byChannel;
}

/**
 * Device 1: two channels of irregular readings (a 3-day gap, a reset, readings
 * with microseconds, one exactly on a boundary used below). Device 2: readings
 * in years 0001 and 9999 (beyond 2^53 µs of 1970). Device 3: no readings.
 * Rows go in as the ingest stores them: each with the previous reading's time,
 * its delta and reset.
 */
const SERIES: { deviceId: number; channel: number; times: string[]; values: number[] }[] = [
  {
    deviceId: 1,
    channel: 1,
    times: [
      '2026-10-24T22:00:00Z',
      '2026-10-24T23:00:00Z',
      '2026-10-25T00:00:00Z',
      '2026-10-25T01:00:00Z',
      '2026-10-25T02:30:00.000123Z',
      '2026-10-25T03:00:00.5Z',
      '2026-10-28T08:00:00Z',
      '2026-10-28T09:00:00Z',
      '2026-10-31T18:30:00Z',
      '2026-11-01T00:15:00.999999Z',
    ],
    values: [10, 10.025, 10.05, 10.051, 10.2, 0.5, 3.75, 3.8, 4.0000001, 4.1],
  },
  { deviceId: 1, channel: 2, times: ['2026-10-25T00:00:00Z', '2026-10-25T06:00:00Z', '2026-10-30T00:00:00Z'], values: [1, 1 + 1 / 3, 2] },
  {
    deviceId: 2,
    channel: 1,
    times: ['0001-01-01T00:00:00Z', '0001-01-01T01:00:00.001Z', '9999-12-31T22:00:00Z', '9999-12-31T23:59:59.999Z'],
    values: [1, 2, 3, 2.5],
  },
];

describe('intervalsOverlapping (packed) and deviceHistory answer exactly as the row queries did', () => {
  let infra: IsolatedInfra;
  let ds: DataSource;

  beforeAll(async () => {
    infra = await isolatedInfra();
    ds = await createDataSource({ schema: 'ingest', url: infra.databaseUrl, poolSize: 2, applicationName: 'reader-test' }).initialize();
    for (const time of SERIES.flatMap((s) => s.times)) await ds.query('SELECT ingest.ensure_readings_partition($1::timestamptz)', [time]);
    for (const [deviceId, channels] of [
      [1, 2],
      [2, 1],
      [3, 1],
    ]) {
      await ds.query(`INSERT INTO ingest.devices (org_id, device_id, name, channels, activated_at) VALUES ($1, $2, 'd', $3, '2026-01-01Z')`, [
        ORG,
        deviceId,
        channels,
      ]);
    }
    let seq = 0;
    for (const { deviceId, channel, times, values } of SERIES) {
      for (let i = 0; i < times.length; i++) {
        const reset = i > 0 && values[i] < values[i - 1];
        await ds.query(
          `INSERT INTO ingest.readings (org_id, device_id, channel, read_at, value, prev_read_at, delta, reset, cum, stream_seq) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0, $9)`,
          [ORG, deviceId, channel, times[i], values[i], i > 0 ? times[i - 1] : null, i === 0 || reset ? 0 : values[i] - values[i - 1], reset, ++seq],
        );
      }
    }
  });
  afterAll(async () => {
    await ds?.destroy();
    await infra?.cleanup();
  });

  const at = (iso: string) => Date.parse(iso);
  it.each([
    ['everything', 1, at('2026-10-01T00:00:00Z'), at('2026-12-01T00:00:00Z')],
    ['a local day in +05:30 across the microsecond readings', 1, at('2026-10-24T18:30:00Z'), at('2026-10-25T18:30:00Z')],
    [
      'from exactly a reading (its interval comes along, adding nothing) to exactly a reading (the next one spans the end)',
      1,
      at('2026-10-25T00:00:00Z'),
      at('2026-10-25T01:00:00Z'),
    ],
    ['inside the gap: only the spanning interval', 1, at('2026-10-26T00:00:00Z'), at('2026-10-27T00:00:00Z')],
    ['ending on a reading with microseconds', 1, at('2026-10-25T00:00:00Z'), Date.parse('2026-11-01T00:15:00.999Z')],
    ['before the first reading', 1, at('2026-09-01T00:00:00Z'), at('2026-10-01T00:00:00Z')],
    ['after the last reading', 1, at('2026-11-02T00:00:00Z'), at('2026-11-03T00:00:00Z')],
    ['a quarter of an hour in +05:45', 1, at('2026-10-25T00:15:00Z'), at('2026-10-25T00:30:00Z')],
    ['years 0001 and 9999', 2, at('0001-01-01T00:00:00Z'), at('9999-12-31T23:59:59.999Z')],
    ['a device without readings', 3, at('2026-10-01T00:00:00Z'), at('2026-12-01T00:00:00Z')],
    ['another organization', 99, at('2026-10-01T00:00:00Z'), at('2026-12-01T00:00:00Z')],
  ])('%s', async (_, deviceId, from, to) => {
    const expected = await rowQuery(ds, deviceId, from, to);
    const actual = await intervalsOverlapping(ds, ORG, deviceId, from, to);
    expect(actual).toEqual(expected);
    for (const [channel, intervals] of expected) {
      actual.get(channel)!.forEach((interval, i) => {
        for (const key of ['start', 'end', 'delta'] as const) expect(Object.is(interval[key], intervals[i][key])).toBe(true);
      });
    }
    // deviceHistory: the same device, intervals and window sums as the separate queries, in one
    const window = { from: from + 5 * 60_000 + 0.5, to: to - 17 * 60_000 };
    const together = await deviceHistory(ds, ORG, deviceId, from, to, window);
    const device = (await findDevices(ds, ORG, [deviceId])).get(deviceId);
    if (!device) return expect(together).toBeUndefined();
    expect(together!.device).toEqual(device);
    expect(together!.intervals).toEqual(actual);
    const sums = (await consumptionInWindow(ds, ORG, [deviceId], window.from, window.to)).get(deviceId)!;
    expect([...together!.windowConsumption.keys()]).toEqual([...sums.keys()]);
    for (const [channel, sum] of sums) expect(Object.is(together!.windowConsumption.get(channel), sum)).toBe(true);
    expect((await deviceHistory(ds, ORG, deviceId, from, to))!.windowConsumption.size).toBe(0);
  });
});
