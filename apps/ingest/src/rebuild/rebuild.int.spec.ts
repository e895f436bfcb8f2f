import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSource } from 'typeorm';
import { intervalsFromReadings } from '@meter/consumption';
import { createDataSource } from '@meter/persistence';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import { ensurePartitions } from '../reading-store/reading-store';
import { writeBatch } from '../readings/write-batch';
import { devicesToRebuild, rebuildDevice } from './rebuild';

const H = 3600_000;
const T0 = Date.UTC(2026, 8, 30, 20);

describe('rebuilding the derived columns from stored readings', () => {
  let infra: IsolatedInfra;
  let ds: DataSource;

  beforeAll(async () => {
    infra = await isolatedInfra();
    ds = await createDataSource({ schema: 'ingest', url: infra.databaseUrl, poolSize: 2, applicationName: 'rebuild-test' }).initialize();
  });
  afterAll(async () => {
    await ds?.destroy();
    await infra?.cleanup();
  });

  it('restores the intervals and running totals of the library after they were damaged, and changes nothing when they are right', async () => {
    const readings = Array.from({ length: 12 }, (_, i) => ({ readAt: T0 + i * H, value: i === 7 ? 0.5 : 10 + i * 1.25 }));
    const rows = readings.map((r, i) => ({ orgId: 'o1', deviceId: 5, channel: 1, ...r, seq: i + 1 }));
    await ensurePartitions(
      (sql, params) => ds.query(sql, params),
      rows.map((r) => r.readAt),
      new Set(),
    );
    await ds.transaction((m) => writeBatch(m.queryRunner!, rows, []));
    // Damage what the compact store keeps besides the values: the day row's bases, so every running total is off by one.
    await ds.query(`UPDATE ingest.reading_days SET cum_before = -1 WHERE org_id = 'o1' AND device_id = 5`);

    expect(await devicesToRebuild(ds, 'o1')).toEqual([{ orgId: 'o1', deviceId: 5 }]);
    expect(await devicesToRebuild(ds, 'nobody')).toEqual([]);
    expect(await ds.transaction((m) => rebuildDevice(m.queryRunner!, 'o1', 5))).toBe(12);
    expect(await ds.transaction((m) => rebuildDevice(m.queryRunner!, 'o1', 5))).toBe(0);

    const stored = await ds.query(
      `SELECT (extract(epoch from prev_read_at) * 1000)::float8 AS start, (extract(epoch from read_at) * 1000)::float8 AS "end", delta, reset, cum
       FROM ingest.readings WHERE org_id = 'o1' AND device_id = 5 ORDER BY read_at`,
    );
    const expected = intervalsFromReadings(readings);
    expect(
      stored
        .slice(1)
        .map((r: { start: number; end: number; delta: number; reset: boolean }) => ({ start: r.start, end: r.end, delta: r.delta, reset: r.reset })),
    ).toEqual(expected);
    let running = 0;
    expect(stored.map((r: { cum: number }) => r.cum)).toEqual([0, ...expected.map((i) => (running += i.delta))].map((v) => expect.closeTo(v, 9)));
  });
});
