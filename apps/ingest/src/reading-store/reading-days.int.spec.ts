import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSource } from 'typeorm';
import { createDataSource } from '@meter/persistence';
import { unpackDay, walkDay } from '@meter/read-model';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import { latestPerKey, type ReadingRow } from './reading-batch';
import { writeReadingDays } from './reading-days';
import { ensurePartitions, writeReadings, type WrittenReadings } from './reading-store';

const ORG = 'org_days';
const H = 3_600_000;
const T0 = Date.parse('2026-10-29T00:00:00Z'); // the month ends inside the window

/** Seeded batches of appends, late readings, corrections, stale redeliveries, repeats and register resets. */
function scenario(seed: number): ReadingRow[][] {
  let s = seed;
  const random = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const channels = [
    [1, 1],
    [1, 2],
    [2, 1],
    [3, 1],
  ] as const;
  const written: ReadingRow[] = [];
  const next = new Map<string, { at: number; value: number }>(channels.map(([d, c]) => [`${d}:${c}`, { at: T0 + Math.floor(random() * 5) * H, value: 100 }]));
  let seq = 0;
  const batches: ReadingRow[][] = [];
  for (let b = 0; b < 160; b++) {
    const batch: ReadingRow[] = [];
    for (let m = 1 + Math.floor(random() * 4); m > 0; m--) {
      const [deviceId, channel] = pick(channels);
      const kind = random();
      seq++;
      if (kind < 0.55 || written.length === 0) {
        const cursor = next.get(`${deviceId}:${channel}`)!;
        for (let n = 1 + Math.floor(random() * 3); n > 0; n--) {
          cursor.at += (1 + Math.floor(random() * 3)) * H;
          cursor.value = random() < 0.05 ? Math.round(random() * 10) : Math.round((cursor.value + random() * 2) * 1000) / 1000;
          batch.push({ orgId: ORG, deviceId, channel, readAt: cursor.at, value: cursor.value, seq });
        }
      } else {
        const old = pick(written);
        if (kind < 0.7) batch.push({ ...old, readAt: old.readAt - Math.floor(random() * 50) * 60_000 - 60_000, seq });
        else if (kind < 0.85) batch.push({ ...old, value: Math.round(random() * 300_000) / 1000, seq });
        else if (kind < 0.95) batch.push({ ...old, value: old.value + 1, seq: Math.max(0, old.seq - 1) });
        else batch.push({ ...old });
      }
    }
    written.push(...batch);
    batches.push(batch);
  }
  return batches;
}

describe('the compact store keeps what the row store keeps, batch by batch', () => {
  let infra: IsolatedInfra;
  let ds: DataSource;
  const known = new Set<number>();

  beforeAll(async () => {
    infra = await isolatedInfra();
    ds = await createDataSource({ schema: 'ingest', url: infra.databaseUrl, poolSize: 2, applicationName: 'reading-days-test' }).initialize();
  });
  afterAll(async () => {
    await ds?.destroy();
    await infra?.cleanup();
  });

  async function writeBoth(batch: readonly ReadingRow[]): Promise<[WrittenReadings, WrittenReadings]> {
    const rows = latestPerKey(batch);
    await ensurePartitions(
      (sql, params) => ds.query(sql, params),
      rows.map((r) => r.readAt),
      known,
    );
    const runner = ds.createQueryRunner();
    await runner.startTransaction();
    try {
      const written = [await writeReadings(runner, rows), await writeReadingDays(runner, rows)] as [WrittenReadings, WrittenReadings];
      await runner.commitTransaction();
      return written;
    } catch (error) {
      await runner.rollbackTransaction();
      throw error;
    } finally {
      await runner.release();
    }
  }

  const sortedAppends = (w: WrittenReadings) => [...w.appends].sort((a, b) => a.deviceId - b.deviceId || a.channel - b.channel || a.readAt - b.readAt);
  const sortedLate = (w: WrittenReadings) => [...w.late].sort((a, b) => a.deviceId - b.deviceId || a.channel - b.channel);

  async function rowStore() {
    return (await ds.query(
      `SELECT device_id::float8 AS device, channel, (extract(epoch from read_at) * 1000)::float8 AS at, value, stream_seq::float8 AS seq,
         (extract(epoch from prev_read_at) * 1000)::float8 AS prev, delta, reset, cum
       FROM ingest.readings WHERE org_id = $1 ORDER BY device_id, channel, read_at`,
      [ORG],
    )) as { device: number; channel: number; at: number; value: number; seq: number; prev: number | null; delta: number; reset: boolean; cum: number }[];
  }

  async function dayStore() {
    const days: { device: number; channel: number; day: number; prev_at: number | null; prev_value: number; cum_before: number; readings: Buffer }[] =
      await ds.query(
        `SELECT device_id::float8 AS device, channel, (day - date '1970-01-01') AS day, (extract(epoch from prev_at) * 1000)::float8 AS prev_at,
           prev_value, cum_before, readings
         FROM ingest.reading_days WHERE org_id = $1 ORDER BY device_id, channel, day`,
        [ORG],
      );
    const readings: Awaited<ReturnType<typeof rowStore>> = [];
    for (const d of days) {
      const day = { day: d.day, readings: unpackDay(d.readings), prevAt: d.prev_at, prevValue: d.prev_value, cumBefore: d.cum_before };
      walkDay(day, (r, at, prev, delta, reset, cum) =>
        readings.push({ device: d.device, channel: d.channel, at, value: r.value, seq: r.seq, prev, delta, reset, cum }),
      );
    }
    return readings;
  }

  it.each([1, 2, 3])('scenario %i: the same readings, intervals and running totals, and the same summary of each batch', async (seed) => {
    await ds.query('DELETE FROM ingest.readings WHERE org_id = $1', [ORG]);
    await ds.query('DELETE FROM ingest.reading_days WHERE org_id = $1', [ORG]);
    let late = 0;
    for (const batch of scenario(seed)) {
      const [rows, days] = await writeBoth(batch);
      expect(sortedAppends(days)).toEqual(sortedAppends(rows));
      expect(sortedLate(days)).toEqual(sortedLate(rows));
      late += rows.late.length;
      expect([...days.latest.keys()].sort()).toEqual([...rows.latest.keys()].sort());
      for (const [key, stored] of rows.latest) {
        const other = days.latest.get(key)!;
        expect([other.readAt, other.value]).toEqual([stored.readAt, stored.value]);
        expect(other.cum).toBeCloseTo(stored.cum, 6);
      }
    }
    expect(late).toBeGreaterThan(20);
    const [expected, actual] = [await rowStore(), await dayStore()];
    expect(actual.length).toBe(expected.length);
    expect(expected.some((r) => r.reset)).toBe(true);
    expect(actual.map(({ cum: _, ...rest }) => rest)).toEqual(expected.map(({ cum: _, ...rest }) => rest));
    actual.forEach((r, i) => expect(r.cum).toBeCloseTo(expected[i].cum, 6));
  });
});
