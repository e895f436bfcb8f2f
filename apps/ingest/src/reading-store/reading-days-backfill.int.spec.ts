import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSource, QueryRunner } from 'typeorm';
import { createDataSource } from '@meter/persistence';
import { readAtOf, unpackDay, walkDay } from '@meter/read-model';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import { ensurePartitions, writeBatch, type ReadingRow } from '../index';
import { insertOldReadings, migrateIngest, migrateToOldLayout, type OldReading } from './old-layout.fixture';
import { latestPerKey } from './reading-batch';
import { backfillBatch, backfillReadingDays, type BackfillStep } from './reading-days-backfill';

const DAY_US = 86_400_000_000;
const HOUR_US = 3_600_000_000;
const AUG = Date.UTC(2026, 7, 1) * 1000;
const NOV = Date.UTC(2026, 10, 1) * 1000;

/** An instant in µs since the epoch as the compact store's walk gives it: the same doubles on both sides. */
const msOf = (us: number) => readAtOf(Math.floor(us / DAY_US), us - Math.floor(us / DAY_US) * DAY_US);

/**
 * The old layout's readings, August to October 2026: several organizations,
 * microseconds in the times, register resets, a channel across the end of
 * August only, one with no September (its October follows August), one of
 * October only.
 */
function oldReadings(): OldReading[] {
  const spans: [string, number, number, number, number][] = [
    // org, device, channel, first µs, last µs
    ['org-a', 1, 1, AUG, NOV],
    ['org-a', 1, 2, AUG + 5 * HOUR_US, NOV],
    ['org-a', 2, 1, AUG + 27 * DAY_US, AUG + 35 * DAY_US],
    ['org-b', 1, 1, AUG, NOV],
    ['org-b', 7, 1, AUG + 2 * DAY_US, NOV],
    ['org-b', 7, 3, AUG + 61 * DAY_US, NOV],
    ['org-c', 3, 1, AUG, NOV],
  ];
  const readings: OldReading[] = [];
  let seq = 0;
  for (const [org, device, channel, first, last] of spans) {
    let value = 100 + device;
    for (let k = 0; first + k * 7 * HOUR_US < last; k++) {
      // every other reading off the millisecond: ingest parses whole milliseconds, but the store keeps µs
      const us = first + k * 7 * HOUR_US + (k % 2 === 1 ? (k * 7919) % 1_000_000 : ((k * 7919) % 1000) * 1000);
      // org-c's device 3 has no September
      if (org === 'org-c' && us >= AUG + 31 * DAY_US && us < AUG + 61 * DAY_US) continue;
      value = k % 41 === 40 ? Math.round(value * 10) / 1000 : Math.round((value + ((k * 37) % 11) / 7) * 1000) / 1000;
      readings.push({ org, device, channel, us, value, seq: ++seq });
    }
  }
  return readings;
}

describe('the migration of the readings stored before the compact store: the backfill, then the switch', () => {
  let infra: IsolatedInfra;
  let ds: DataSource;
  const known = new Set<number>();
  const old = oldReadings();

  beforeAll(async () => {
    // The old layout: readings in the table with their intervals and totals, no day rows, the backfill not begun.
    infra = await isolatedInfra({ migrate: false });
    await migrateToOldLayout(infra.databaseUrl, (db) => insertOldReadings(db, old));
    ds = await createDataSource({ schema: 'ingest', url: infra.databaseUrl, poolSize: 4, applicationName: 'backfill-test' }).initialize();
  });
  afterAll(async () => {
    await ds?.destroy();
    await infra?.cleanup();
  });

  /** Every reading of the row store, with its interval, in key order. */
  async function rowStore() {
    const rows: { o: string; d: number; c: number; us: string; value: number; seq: string; prev: string | null; delta: number; reset: boolean; cum: number }[] =
      await ds.query(
        `SELECT org_id AS o, device_id::float8 AS d, channel AS c, (extract(epoch from read_at) * 1000000)::bigint AS us, value, stream_seq AS seq,
           (extract(epoch from prev_read_at) * 1000000)::bigint AS prev, delta, reset, cum
         FROM ingest.readings ORDER BY org_id, device_id, channel, read_at`,
      );
    return rows.map((r) => ({
      key: `${r.o}:${r.d}:${r.c}`,
      readAt: msOf(Number(r.us)),
      value: r.value,
      seq: Number(r.seq),
      prevAt: r.prev === null ? null : msOf(Number(r.prev)),
      delta: r.delta,
      reset: r.reset,
      cum: r.cum,
    }));
  }

  /** Every reading of the compact store, decoded and walked, in key order. */
  async function dayStore() {
    const days: { o: string; d: number; c: number; day: number; prev: string | null; pv: number; cb: number; n: number; readings: Buffer }[] = await ds.query(
      `SELECT org_id AS o, device_id::float8 AS d, channel AS c, day - date '1970-01-01' AS day, (extract(epoch from prev_at) * 1000000)::bigint AS prev,
         prev_value AS pv, cum_before AS cb, reading_count AS n, readings
       FROM ingest.reading_days ORDER BY org_id, device_id, channel, day`,
    );
    const walked: Awaited<ReturnType<typeof rowStore>> = [];
    for (const row of days) {
      const readings = unpackDay(row.readings);
      expect(readings).toHaveLength(row.n);
      const day = { day: row.day, readings, prevAt: row.prev === null ? null : msOf(Number(row.prev)), prevValue: row.pv, cumBefore: row.cb };
      walkDay(day, (reading, readAt, prevAt, delta, reset, cum) =>
        walked.push({ key: `${row.o}:${row.d}:${row.c}`, readAt, value: reading.value, seq: reading.seq, prevAt, delta, reset, cum }),
      );
    }
    return walked;
  }

  /** The compact store holds what the row store holds, reading for reading. */
  async function expectSameStores() {
    const [rows, walked] = await Promise.all([rowStore(), dayStore()]);
    expect(walked).toHaveLength(rows.length);
    const strip = <T extends { cum: number }>({ cum, ...rest }: T) => (void cum, rest);
    expect(walked.map(strip)).toEqual(rows.map(strip));
    walked.forEach((reading, i) => expect(reading.cum, `${reading.key} at ${reading.readAt}`).toBeCloseTo(rows[i].cum, 6));
  }

  /**
   * The day rows bit for bit, but for the running totals: the dual write moves
   * later days' `cum_before` by a late reading's difference, the row store
   * sums again, so the two may differ in the last bits.
   */
  async function fingerprint() {
    const [{ h, cums }]: { h: string; cums: number[] }[] = await ds.query(
      `SELECT md5(string_agg(concat_ws(',', org_id, device_id, channel, day, prev_at, prev_value, reading_count, readings), '|' ORDER BY org_id, device_id, channel, day)) AS h,
         array_agg(cum_before ORDER BY org_id, device_id, channel, day) AS cums
       FROM ingest.reading_days`,
    );
    return { h, cums };
  }
  const progress = async () =>
    (await ds.query(
      `SELECT to_char(month, 'YYYY-MM') AS month, done_at IS NOT NULL AS done FROM ingest.reading_days_backfill WHERE month <> 'infinity' ORDER BY month`,
    )) as { month: string; done: boolean }[];
  const finished = async () => (await ds.query(`SELECT count(*)::int AS n FROM ingest.reading_days_backfill WHERE month = 'infinity'`))[0].n === 1;

  /**
   * The release before the switch wrote both stores in one transaction, under
   * the devices' locks: the compact store as ingest writes it now, the table
   * as its row writer did (the rows, then the channels' derived columns).
   */
  async function dualWrite(runner: QueryRunner, readings: ReadingRow[]) {
    await writeBatch(runner, readings, []);
    const rows = latestPerKey(readings).map((r) => ({ org: r.orgId, device: r.deviceId, channel: r.channel, us: r.readAt * 1000, value: r.value, seq: r.seq }));
    await insertOldReadings(runner, rows);
  }
  async function write(readings: ReadingRow[]) {
    await ensurePartitions(
      (sql, params) => ds.query(sql, params),
      readings.map((r) => r.readAt),
      known,
    );
    await ds.transaction((manager) => dualWrite(manager.queryRunner!, readings));
  }

  /**
   * The ingest of the release before the switch, meanwhile: late readings in every month
   * (backfilled already or not yet), corrections, and appends that run into
   * November, a month made after the backfill began.
   */
  function newBatch(i: number, seq: number): ReadingRow[] {
    const channels = [...new Set(old.map((r) => `${r.org}:${r.device}:${r.channel}`))];
    const batch: ReadingRow[] = [];
    for (const pick of [channels[i % channels.length], channels[(i * 3 + 1) % channels.length]]) {
      const mine = old.filter((r) => `${r.org}:${r.device}:${r.channel}` === pick);
      const [orgId, deviceId, channel] = [mine[0].org, mine[0].device, mine[0].channel];
      // ingest's instants are whole milliseconds (RFC 3339 with up to three fraction digits)
      const whole = mine.filter((r) => r.us % 1000 === 0);
      const stored = whole[(i * 13) % whole.length];
      const kind = i % 4;
      if (kind === 0 || kind === 2) {
        // a late reading between two stored ones, a little over 17 minutes after one
        batch.push({ orgId, deviceId, channel, readAt: stored.us / 1000 + 17 * 60_000 + 321, value: stored.value + 0.25, seq });
      } else if (kind === 1) {
        // a correction: the same instant, a later sequence, another value (sometimes a reset)
        batch.push({ orgId, deviceId, channel, readAt: stored.us / 1000, value: i % 8 === 1 ? 1.5 : stored.value + 2, seq });
      } else {
        // appends after the channel's last reading
        const last = mine[mine.length - 1];
        const at = Math.floor(last.us / 1000) + (i + 1) * 9 * 3_600_000;
        batch.push(
          { orgId, deviceId, channel, readAt: at, value: last.value + 100 + i, seq },
          { orgId, deviceId, channel, readAt: at + 3_600_000, value: last.value + 101 + i, seq },
        );
      }
    }
    return batch;
  }

  it('rebuilds every month while ingest writes the same channels, and the stores agree reading for reading', async () => {
    expect(await finished()).toBe(false);
    expect(await ds.query(`SELECT count(*)::int AS n FROM ingest.reading_days`)).toEqual([{ n: 0 }]);
    const steps: BackfillStep[] = [];
    let seq = 1_000_000;
    for (let i = 0; steps.at(-1)?.kind !== 'finished'; i++) {
      // One backfill transaction and one ingest batch at the same time, on the same devices now and then.
      const [step] = await Promise.all([ds.transaction((manager) => backfillBatch(manager.queryRunner!, 2)), write(newBatch(i, ++seq))]);
      steps.push(step);
      expect(i).toBeLessThan(100);
    }
    // Two channels a batch, months oldest first, each done once its keyset ran out; November too, as it was made meanwhile.
    expect(steps.filter((s) => s.kind === 'month-done').map((s) => s.kind === 'month-done' && s.month)).toEqual(['2026-08', '2026-09', '2026-10', '2026-11']);
    expect(steps.every((s) => s.kind !== 'channels' || (s.channels >= 1 && s.channels <= 2))).toBe(true);
    expect(await progress()).toEqual(['2026-08', '2026-09', '2026-10', '2026-11'].map((month) => ({ month, done: true })));
    expect(await finished()).toBe(true);
    await expectSameStores();

    // Ingest goes on after it: the dual write alone keeps the stores equal.
    for (let i = 100; i < 108; i++) await write(newBatch(i, ++seq));
    await expectSameStores();

    // Again: nothing to do. From scratch: the very same rows.
    const before = await fingerprint();
    expect(await backfillReadingDays(ds, { batchChannels: 2 })).toMatchObject({ batches: 0, finished: true });
    await ds.query(`DELETE FROM ingest.reading_days_backfill`);
    const again = await backfillReadingDays(ds, { batchChannels: 3 });
    expect(again).toMatchObject({ finished: true, readings: (await rowStore()).length });
    const after = await fingerprint();
    expect(after.h).toBe(before.h);
    expect(after.cums).toHaveLength(before.cums.length);
    after.cums.forEach((cum, i) => expect(cum).toBeCloseTo(before.cums[i], 6));
    await expectSameStores();
  });

  it('resumes after a batch that died mid-month, losing and doubling nothing', async () => {
    // The old layout again: no day rows, no progress.
    await ds.query(`TRUNCATE ingest.reading_days`);
    await ds.query(`DELETE FROM ingest.reading_days_backfill`);
    // August's channels, August done, September's first two channels: then a batch of September's dies.
    for (let i = 0; i < 5; i++) await ds.transaction((manager) => backfillBatch(manager.queryRunner!, 2));
    const cursor = await ds.query(`SELECT after_org, after_device::int, after_channel FROM ingest.reading_days_backfill ORDER BY month`);
    const days = await fingerprint();

    const runner = ds.createQueryRunner();
    await runner.startTransaction();
    try {
      const step = await backfillBatch(runner, 2);
      expect(step).toMatchObject({ kind: 'channels', month: '2026-09' });
      throw new Error('the process died');
    } catch {
      await runner.rollbackTransaction();
    } finally {
      await runner.release();
    }
    expect(await ds.query(`SELECT after_org, after_device::int, after_channel FROM ingest.reading_days_backfill ORDER BY month`)).toEqual(cursor);
    expect(await fingerprint()).toEqual(days);

    const run = await backfillReadingDays(ds, { batchChannels: 2, budgetMs: 60_000 });
    expect(run.finished).toBe(true);
    await expectSameStores();
  });
  it('waits for an ingest batch that holds a device, then rebuilds with what it wrote', async () => {
    await ds.query(`TRUNCATE ingest.reading_days`);
    await ds.query(`DELETE FROM ingest.reading_days_backfill`);
    // A batch of the first channel in key order, written and not yet committed: it holds the device's lock.
    const holder = ds.createQueryRunner();
    await holder.startTransaction();
    const pending = { settled: false };
    let backfill: Promise<BackfillStep> | undefined;
    try {
      await dualWrite(holder, [{ orgId: 'org-a', deviceId: 1, channel: 1, readAt: AUG / 1000 + 90 * 60_000, value: 100.5, seq: 2_000_000 }]);
      backfill = ds.transaction((manager) => backfillBatch(manager.queryRunner!, 2));
      void backfill.finally(() => (pending.settled = true));
      const waiting = async () =>
        (
          await ds.query(
            `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
          )
        )[0].n;
      for (let tries = 0; (await waiting()) === 0; tries++) {
        expect(tries, 'the backfill never waited for the device').toBeLessThan(100);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(pending.settled).toBe(false);
      await holder.commitTransaction();
    } finally {
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await holder.release();
    }
    expect(await backfill).toMatchObject({ kind: 'channels', month: '2026-08', channels: 2 });
    await backfillReadingDays(ds, { batchChannels: 2 });
    await expectSameStores();
  });

  const kind = async () => (await ds.query(`SELECT relkind AS k FROM pg_class WHERE oid = to_regclass('ingest.readings')`))[0]?.k as string | undefined;
  const retired = async () =>
    (await ds.query(`SELECT count(*)::int AS n FROM public.ingest_migrations WHERE name = 'ReadingRowsRetired1765300000000'`))[0].n === 1;

  it('refuses the switch while the compact store lacks readings of the table, naming the month, and keeps the table', async () => {
    expect(await finished()).toBe(true);
    await expectSameStores();
    const rows = await rowStore();
    // A day row lost: every month is done, so the switch does not backfill again, and must not drop the only copy.
    const [{ n: lost }]: { n: number }[] = await ds.query(
      `WITH gone AS (DELETE FROM ingest.reading_days WHERE org_id = 'org-b' AND device_id = 7 AND channel = 1 AND day = '2026-09-15' RETURNING reading_count)
       SELECT reading_count AS n FROM gone`,
    );
    expect(lost).toBeGreaterThan(0);
    const september = rows.filter((r) => new Date(r.readAt).toISOString().startsWith('2026-09')).length;

    await expect(migrateIngest(infra.databaseUrl)).rejects.toThrow(
      `ingest.reading_days does not hold every reading of ingest.readings (2026-09: ${september} readings, ${september - lost} packed); the table is kept`,
    );
    expect(await kind()).toBe('p');
    expect(await retired()).toBe(false);
    expect(await rowStore()).toEqual(rows);
  });

  it('switches a database whose backfill stopped mid-month: the table becomes a view of the compact store, reading for reading', async () => {
    // The backfill as the release before left it: August done, September begun (the lost day row among what is left).
    await ds.query(`TRUNCATE ingest.reading_days`);
    await ds.query(`DELETE FROM ingest.reading_days_backfill`);
    for (let i = 0; i < 5; i++) await ds.transaction((manager) => backfillBatch(manager.queryRunner!, 2));
    expect(await progress()).toEqual([
      { month: '2026-08', done: true },
      { month: '2026-09', done: false },
    ]);
    const rows = await rowStore();

    expect(await migrateIngest(infra.databaseUrl)).toEqual(['ReadingRowsRetired1765300000000']);
    expect(await kind()).toBe('v');
    expect(await retired()).toBe(true);
    expect(await finished()).toBe(true);
    expect(
      await ds.query(`SELECT count(*)::int AS n FROM pg_class WHERE relnamespace = 'ingest'::regnamespace AND relname ~ '^readings_[0-9]{4}_[0-9]{2}$'`),
    ).toEqual([{ n: 0 }]);

    // The view's rows are the table's: not one lost, not one doubled, every derived column as the old rebuild made it.
    const viewed = await rowStore();
    expect(viewed).toHaveLength(rows.length);
    const strip = <T extends { cum: number }>({ cum, ...rest }: T) => (void cum, rest);
    expect(viewed.map(strip)).toEqual(rows.map(strip));
    viewed.forEach((reading, i) => expect(reading.cum, `${reading.key} at ${reading.readAt}`).toBeCloseTo(rows[i].cum, 6));
    const [counts] = await ds.query(
      `SELECT (SELECT count(*)::int FROM ingest.readings) AS viewed,
         (SELECT count(*)::int FROM (SELECT DISTINCT org_id, device_id, channel, read_at FROM ingest.readings) k) AS distinct_keys,
         (SELECT sum(reading_count)::int FROM ingest.reading_days) AS packed`,
    );
    expect(counts).toEqual({ viewed: rows.length, distinct_keys: rows.length, packed: rows.length });

    // Nothing more to migrate.
    expect(await migrateIngest(infra.databaseUrl)).toEqual([]);
  });
});
