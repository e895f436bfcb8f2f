import type { DataSource, QueryRunner } from 'typeorm';
import { ADVISORY_LOCKS } from '@meter/persistence';
import { packDay } from '@meter/read-model';
import { lockDevices } from '../devices/device-locks';
import type { ChannelKey } from './reading-batch';

/**
 * The in-place backfill of the compact store (`ingest.reading_days`) from the
 * readings stored before it existed (docs/read-model.md, "The compact store
 * and its backfill"). Months go oldest first; within a month, channels in
 * keyset order, a batch of them per transaction under their devices' locks,
 * so ingest waits at most one batch for a device. The row store is the
 * truth: each channel-day of the batch is rebuilt from it, replacing what
 * the dual write put there meanwhile. Each batch commits its progress with
 * its day rows, so a crash loses nothing and a rerun redoes nothing.
 */

/** What one backfill transaction did. */
export type BackfillStep =
  /** rebuilt the day rows of a batch of channels of `month` (YYYY-MM) */
  | { kind: 'channels'; month: string; channels: number; days: number; readings: number }
  /** found `month`'s keyset exhausted and marked it done */
  | { kind: 'month-done'; month: string }
  /** nothing left: every month is done */
  | { kind: 'finished' };

export interface BackfillOptions {
  /** channels per transaction */
  batchChannels: number;
  /** starts no further batch once this long (ms) has passed; unset: runs to the end */
  budgetMs?: number;
  /** told of every transaction's step, after its commit */
  onStep?: (step: BackfillStep) => void;
}

/** What a run of `backfillReadingDays` did. */
export interface BackfillRun {
  /** batches of channels rebuilt */
  batches: number;
  channels: number;
  days: number;
  readings: number;
  /** the month worked on last (YYYY-MM), null if none */
  month: string | null;
  /** every month is done */
  finished: boolean;
}

/** The month row that marks the whole backfill done. */
const FINISHED = 'infinity';

/** Whether every month is done: a primary-key probe, the cheap check of a run with nothing to do. */
async function backfillFinished(db: Pick<QueryRunner, 'query'> | DataSource): Promise<boolean> {
  const rows: unknown[] = await db.query(`SELECT 1 FROM ingest.reading_days_backfill WHERE month = $1::date`, [FINISHED]);
  return rows.length > 0;
}

/**
 * Runs backfill transactions, one after the other, until every month is
 * done or `budgetMs` has passed: on connections of a pool, or all on one
 * runner outside a transaction (a migration's).
 */
export async function backfillReadingDays(db: DataSource | QueryRunner, options: BackfillOptions): Promise<BackfillRun> {
  const started = Date.now();
  const run: BackfillRun = { batches: 0, channels: 0, days: 0, readings: 0, month: null, finished: false };
  if (await backfillFinished(db)) return { ...run, finished: true };
  for (;;) {
    const step = await inTransaction(db, (runner) => backfillBatch(runner, options.batchChannels));
    options.onStep?.(step);
    if (step.kind === 'finished') return { ...run, finished: true };
    run.month = step.month;
    if (step.kind === 'channels') {
      run.batches++;
      run.channels += step.channels;
      run.days += step.days;
      run.readings += step.readings;
    }
    if (options.budgetMs !== undefined && Date.now() - started >= options.budgetMs) return run;
  }
}

async function inTransaction<T>(db: DataSource | QueryRunner, work: (runner: QueryRunner) => Promise<T>): Promise<T> {
  if (!('startTransaction' in db)) return db.transaction((manager) => work(manager.queryRunner!));
  await db.startTransaction();
  try {
    const result = await work(db);
    await db.commitTransaction();
    return result;
  } catch (error) {
    await db.rollbackTransaction();
    throw error;
  }
}

/**
 * One backfill step in the caller's transaction: the next batch of channels
 * of the oldest month not done, or marking that month done, or the whole
 * backfill. Commit or roll back as one.
 */
export async function backfillBatch(runner: QueryRunner, batchChannels: number): Promise<BackfillStep> {
  // One backfiller at a time (each replica's job, the CLI), taken before any device lock.
  await runner.query(`SELECT pg_advisory_xact_lock($1)`, [ADVISORY_LOCKS.readingDaysBackfill]);
  if (await backfillFinished(runner)) return { kind: 'finished' };
  const work = await monthToDo(runner);
  if (work === null) {
    // Every month that exists now is done: a month made later only ever held dual-written readings.
    await runner.query(`INSERT INTO ingest.reading_days_backfill (month, done_at) VALUES ($1::date, now()) ON CONFLICT (month) DO NOTHING`, [FINISHED]);
    return { kind: 'finished' };
  }
  const month = work.month.slice(0, 7);
  const [from, to] = monthBounds(work.month);
  const channels = await nextChannels(runner, from, to, work.after, batchChannels);
  if (channels.length === 0) {
    await runner.query(`INSERT INTO ingest.reading_days_backfill (month, done_at) VALUES ($1::date, now()) ON CONFLICT (month) DO UPDATE SET done_at = now()`, [
      work.month,
    ]);
    return { kind: 'month-done', month };
  }
  // Under the locks no batch writes these devices: what is read next is all there is, and stays so until commit.
  await lockDevices(runner, channels);
  const days = await channelDays(runner, channels, from, to);
  await replaceDays(runner, channels, days, from, to);
  const last = channels[channels.length - 1];
  await runner.query(
    `INSERT INTO ingest.reading_days_backfill (month, after_org, after_device, after_channel) VALUES ($1::date, $2, $3, $4)
     ON CONFLICT (month) DO UPDATE SET after_org = EXCLUDED.after_org, after_device = EXCLUDED.after_device, after_channel = EXCLUDED.after_channel`,
    [work.month, last.orgId, last.deviceId, last.channel],
  );
  return { kind: 'channels', month, channels: channels.length, days: days.length, readings: days.reduce((n, d) => n + d.us.length, 0) };
}

/** The oldest month partition of `ingest.readings` not done, with the last channel done in it. */
async function monthToDo(runner: QueryRunner): Promise<{ month: string; after: ChannelKey | null } | null> {
  const rows: { month: string; after_org: string | null; after_device: number | null; after_channel: number | null }[] = await runner.query(
    `SELECT to_char(m.month, 'YYYY-MM-DD') AS month, b.after_org, b.after_device::float8 AS after_device, b.after_channel
     FROM (SELECT to_date(substr(c.relname, 10), 'YYYY_MM') AS month FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
           WHERE i.inhparent = 'ingest.readings'::regclass AND c.relname ~ '^readings_[0-9]{4}_[0-9]{2}$') m
     LEFT JOIN ingest.reading_days_backfill b ON b.month = m.month
     WHERE b.done_at IS NULL
     ORDER BY m.month LIMIT 1`,
  );
  if (rows.length === 0) return null;
  const [row] = rows;
  const after = row.after_org === null ? null : { orgId: row.after_org, deviceId: row.after_device!, channel: row.after_channel! };
  return { month: row.month, after };
}

/** The month's UTC bounds, ISO: computed here, as `+ interval '1 month'` in SQL would follow the session's time zone. */
function monthBounds(month: string): [string, string] {
  const [y, m] = month.split('-').map(Number);
  return [new Date(Date.UTC(y, m - 1, 1)).toISOString(), new Date(Date.UTC(y, m, 1)).toISOString()];
}

/**
 * The next channels of the month after `after`, in key order: a skip scan,
 * one index probe per channel, so a batch costs the same at any point of
 * the keyset and in any size of month.
 */
async function nextChannels(runner: QueryRunner, from: string, to: string, after: ChannelKey | null, limit: number): Promise<ChannelKey[]> {
  const rows: { org_id: string; device_id: number; channel: number }[] = await runner.query(
    // Before the month's first channel the cursor is the smallest key of all, so the row comparison always bounds the index scan.
    `WITH RECURSIVE ch AS (
       (SELECT r.org_id, r.device_id, r.channel, 1 AS n FROM ingest.readings r
        WHERE r.read_at >= $1::timestamptz AND r.read_at < $2::timestamptz AND (r.org_id, r.device_id, r.channel) > (coalesce($3::text, ''), coalesce($4::bigint, '-9223372036854775808'::bigint), coalesce($5::smallint, '-32768'::smallint))
        ORDER BY r.org_id, r.device_id, r.channel LIMIT 1)
       UNION ALL
       SELECT x.org_id, x.device_id, x.channel, ch.n + 1 FROM ch CROSS JOIN LATERAL (
         SELECT r.org_id, r.device_id, r.channel FROM ingest.readings r
         WHERE r.read_at >= $1::timestamptz AND r.read_at < $2::timestamptz AND (r.org_id, r.device_id, r.channel) > (ch.org_id, ch.device_id, ch.channel)
         ORDER BY r.org_id, r.device_id, r.channel LIMIT 1) x
       WHERE ch.n < $6
     )
     SELECT org_id, device_id::float8 AS device_id, channel FROM ch ORDER BY n`,
    [from, to, after?.orgId ?? null, after?.deviceId ?? null, after?.channel ?? null, limit],
  );
  return rows.map((r) => ({ orgId: r.org_id, deviceId: r.device_id, channel: r.channel }));
}

/** One channel-day as the row store has it: its readings ascending, and the reading before the day. */
interface StoredDay {
  /** index into the batch's channels */
  i: number;
  /** days since 1970-01-01 */
  day: number;
  /** µs in the day, values, stream sequences (int8 arrive as text) */
  us: string[];
  vals: number[];
  seqs: string[];
  /** the first reading's prev_read_at in µs since the epoch (text), its value and running total; null, 0, 0: none */
  prev_us: string | null;
  prev_value: number;
  cum_before: number;
  /** a reading of the day is a register reset */
  has_reset: boolean;
}

/**
 * The channels' readings of the month grouped by UTC day: index range scans
 * by channel and time. The day's base is what the row store says precedes
 * its first reading (`prev_read_at`), and that reading's value and `cum`,
 * found by key wherever it lies.
 */
async function channelDays(runner: QueryRunner, channels: readonly ChannelKey[], from: string, to: string): Promise<StoredDay[]> {
  return runner.query(
    `SELECT d.i::int AS i, d.day, d.us, d.vals, d.seqs, d.has_reset, (extract(epoch from d.prev_at) * 1000000)::bigint AS prev_us,
       coalesce(p.value, 0) AS prev_value, coalesce(p.cum, 0) AS cum_before
     FROM (
       SELECT k.i, x.day, array_agg(x.us ORDER BY x.read_at) AS us, array_agg(x.value ORDER BY x.read_at) AS vals,
         array_agg(x.stream_seq ORDER BY x.read_at) AS seqs, (array_agg(x.prev_read_at ORDER BY x.read_at))[1] AS prev_at, bool_or(x.reset) AS has_reset,
         k.o, k.d, k.c
       FROM unnest($1::text[], $2::bigint[], $3::smallint[]) WITH ORDINALITY AS k(o, d, c, i)
       CROSS JOIN LATERAL (
         SELECT r.read_at, r.value, r.stream_seq, r.prev_read_at, r.reset, u.day,
           (extract(epoch from r.read_at) * 1000000)::bigint - u.day::bigint * 86400000000 AS us
         FROM ingest.readings r
         CROSS JOIN LATERAL (SELECT (r.read_at AT TIME ZONE 'UTC')::date - date '1970-01-01' AS day) u
         WHERE r.org_id = k.o AND r.device_id = k.d AND r.channel = k.c AND r.read_at >= $4::timestamptz AND r.read_at < $5::timestamptz
       ) x
       GROUP BY k.i, k.o, k.d, k.c, x.day
     ) d
     LEFT JOIN ingest.readings p ON p.org_id = d.o AND p.device_id = d.d AND p.channel = d.c AND p.read_at = d.prev_at
     ORDER BY d.i, d.day`,
    [channels.map((c) => c.orgId), channels.map((c) => c.deviceId), channels.map((c) => c.channel), from, to],
  );
}

/**
 * Replaces the channels' day rows of the month with those rebuilt from the
 * row store: the ones the dual write made meanwhile lacked the older
 * readings, or the bases before them.
 */
async function replaceDays(runner: QueryRunner, channels: readonly ChannelKey[], days: readonly StoredDay[], from: string, to: string) {
  await runner.query(
    `DELETE FROM ingest.reading_days r USING unnest($1::text[], $2::bigint[], $3::smallint[]) AS k(o, d, c)
     WHERE r.org_id = k.o AND r.device_id = k.d AND r.channel = k.c
       AND r.day >= ($4::timestamptz AT TIME ZONE 'UTC')::date AND r.day < ($5::timestamptz AT TIME ZONE 'UTC')::date`,
    [channels.map((c) => c.orgId), channels.map((c) => c.deviceId), channels.map((c) => c.channel), from, to],
  );
  if (days.length === 0) return;
  const of = (d: StoredDay) => channels[d.i - 1];
  await runner.query(
    `INSERT INTO ingest.reading_days (org_id, device_id, channel, day, prev_at, prev_value, cum_before, reading_count, readings, has_reset)
     SELECT o, d, c, date '1970-01-01' + dy, 'epoch'::timestamptz + p * interval '1 microsecond', pv, cb, n, b, r
     FROM unnest($1::text[], $2::bigint[], $3::smallint[], $4::int[], $5::bigint[], $6::float8[], $7::float8[], $8::int[], $9::bytea[], $10::bool[])
       AS u(o, d, c, dy, p, pv, cb, n, b, r)`,
    [
      days.map((d) => of(d).orgId),
      days.map((d) => of(d).deviceId),
      days.map((d) => of(d).channel),
      days.map((d) => d.day),
      days.map((d) => d.prev_us),
      days.map((d) => d.prev_value),
      days.map((d) => d.cum_before),
      days.map((d) => d.us.length),
      days.map(packStoredDay),
      days.map((d) => d.has_reset),
    ],
  );
}

const packStoredDay = (d: StoredDay): Buffer => packDay(d.us.map((us, j) => ({ us: Number(us), value: d.vals[j], seq: Number(d.seqs[j]) })));
