import type { QueryRunner } from 'typeorm';
import { PgArrayWriter } from '@meter/persistence';
import { channelKeyer, monthsOf, visitIntervals, type ReadingRow, type StoredReading } from './reading-batch';

/**
 * The reading store: how ingest keeps readings with their intervals and
 * running totals in `ingest.readings` (docs/read-model.md, "How a batch is
 * written"). The query side is libs/read-model's readings folder.
 */

/** What `writeReadings` did with a batch's readings. */
export interface WrittenReadings {
  /** readings after their channel's latest stored one, as written */
  appends: ReadingRow[];
  /** the latest stored reading of each channel before the batch, keyed `org\0device\0channel` */
  latest: Map<string, StoredReading>;
  /** per channel, the span of late readings and corrections that changed stored rows */
  late: ChangedRange[];
  /** readings whose stored interval was recomputed against stored neighbours */
  relinked: number;
}

/**
 * Stores readings (one per key: `latestPerKey`) in the caller's transaction,
 * which holds their devices' locks. Under those locks nothing else writes
 * these channels, so readings after the latest stored one cannot conflict:
 * they take a plain INSERT with their intervals computed here. Only late
 * readings need ON CONFLICT and relinking.
 */
export async function writeReadings(runner: QueryRunner, rows: readonly ReadingRow[]): Promise<WrittenReadings> {
  const latest = await latestStored(runner, rows);
  const appends: ReadingRow[] = [];
  const lateRows: ReadingRow[] = [];
  const keyOf = channelKeyer();
  for (const row of rows) {
    const stored = latest.get(keyOf(row));
    (stored === undefined || row.readAt > stored.readAt ? appends : lateRows).push(row);
  }
  await appendReadings(runner, appends, latest);
  const late = lateRows.length ? await upsertReadings(runner, lateRows) : [];
  const relinked = await relinkIntervals(runner, late);
  return { appends, latest, late, relinked };
}

const channelKey = (r: { orgId: string; deviceId: number; channel: number }) => `${r.orgId}\u0000${r.deviceId}\u0000${r.channel}`;

/** The latest stored reading of each channel in the batch: one backward index probe per channel. */
async function latestStored(runner: QueryRunner, rows: readonly ReadingRow[]): Promise<Map<string, StoredReading>> {
  const channels = new Map<string, ReadingRow>();
  const keyOf = channelKeyer();
  for (const row of rows) channels.set(keyOf(row), row);
  const list = [...channels.values()];
  const found: { org_id: string; device_id: number; channel: number; read_at: number; value: number; cum: number }[] = await runner.query(
    `SELECT c.o AS org_id, c.d::float8 AS device_id, c.c AS channel, (extract(epoch from l.read_at) * 1000)::float8 AS read_at, l.value, l.cum
     FROM unnest($1::text[], $2::bigint[], $3::smallint[]) AS c(o, d, c)
     CROSS JOIN LATERAL (SELECT read_at, value, cum FROM ingest.readings r WHERE r.org_id = c.o AND r.device_id = c.d AND r.channel = c.c
                         ORDER BY r.read_at DESC LIMIT 1) l`,
    [list.map((r) => r.orgId), list.map((r) => r.deviceId), list.map((r) => r.channel)],
  );
  return new Map(
    found.map((r) => [channelKey({ orgId: r.org_id, deviceId: r.device_id, channel: r.channel }), { readAt: r.read_at, value: r.value, cum: r.cum }]),
  );
}

/**
 * The readings with their intervals (`visitIntervals`) as ten binary array
 * parameters, without an object per reading: the values go to Postgres in its
 * own binary forms (doubles, µs since 2000), so neither side turns numbers
 * into text and back.
 */
function readingColumns(rows: readonly ReadingRow[], stored: ReadonlyMap<string, StoredReading> = new Map()): Buffer[] {
  const n = rows.length;
  const [org, device, channel, readAt, value, prev, delta, reset, cum, seq] = [
    PgArrayWriter.text(n),
    PgArrayWriter.int8(n),
    PgArrayWriter.int2(n),
    PgArrayWriter.timestamptz(n),
    PgArrayWriter.float8(n),
    PgArrayWriter.timestamptz(n),
    PgArrayWriter.float8(n),
    PgArrayWriter.bool(n),
    PgArrayWriter.float8(n),
    PgArrayWriter.int8(n),
  ];
  visitIntervals(rows, stored, (row, prevReadAt, d, r, c) => {
    org.text(row.orgId);
    device.int8(row.deviceId);
    channel.int2(row.channel);
    readAt.timestamptz(row.readAt);
    value.float8(row.value);
    if (prevReadAt === null) prev.null();
    else prev.timestamptz(prevReadAt);
    delta.float8(d);
    reset.bool(r);
    cum.float8(c);
    seq.int8(row.seq);
  });
  return [org, device, channel, readAt, value, prev, delta, reset, cum, seq].map((column) => column.finish());
}

const UNNEST_READINGS = `SELECT * FROM unnest($1::text[], $2::bigint[], $3::smallint[], $4::timestamptz[], $5::float8[], $6::timestamptz[],
                                   $7::float8[], $8::bool[], $9::float8[], $10::bigint[])`;

/** Readings after their channel's latest stored one: a plain `INSERT ... SELECT FROM unnest`, no conflict possible. */
async function appendReadings(runner: QueryRunner, rows: readonly ReadingRow[], latest: ReadonlyMap<string, StoredReading>) {
  if (rows.length === 0) return;
  await runner.query(
    `INSERT INTO ingest.readings (org_id, device_id, channel, read_at, value, prev_read_at, delta, reset, cum, stream_seq) ${UNNEST_READINGS}`,
    readingColumns(rows, latest),
  );
}

/** A channel's span of late readings and corrections that changed stored rows. */
export interface ChangedRange {
  orgId: string;
  deviceId: number;
  channel: number;
  lo: string;
  hi: string;
  count: number;
}

/**
 * Inserts new readings and applies corrections (a different value from a
 * later stream sequence). Repeats and stale redeliveries change nothing.
 * Returns, per channel, the span of readings that actually changed.
 */
async function upsertReadings(runner: QueryRunner, rows: readonly ReadingRow[]): Promise<ChangedRange[]> {
  const result: { org_id: string; device_id: string; channel: number; lo: Date; hi: Date; n: string }[] = await runner.query(
    `WITH changed AS (
       INSERT INTO ingest.readings AS t (org_id, device_id, channel, read_at, value, prev_read_at, delta, reset, cum, stream_seq)
       ${UNNEST_READINGS}
       ON CONFLICT (org_id, device_id, channel, read_at) DO UPDATE SET value = EXCLUDED.value, stream_seq = EXCLUDED.stream_seq
       WHERE t.stream_seq < EXCLUDED.stream_seq AND t.value <> EXCLUDED.value
       RETURNING org_id, device_id, channel, read_at)
     SELECT org_id, device_id, channel, min(read_at) AS lo, max(read_at) AS hi, count(*) AS n FROM changed GROUP BY 1, 2, 3`,
    readingColumns(rows),
  );
  return result.map((r) => ({
    orgId: r.org_id,
    deviceId: Number(r.device_id),
    channel: r.channel,
    lo: r.lo.toISOString(),
    hi: r.hi.toISOString(),
    count: Number(r.n),
  }));
}

/**
 * Recomputes the stored interval of every reading from the changed span's
 * predecessor to its successor: a late reading splits its neighbour's
 * interval, a correction changes its own and the next one. Rows whose
 * interval is already right are not rewritten.
 */
async function relinkIntervals(runner: QueryRunner, ranges: readonly ChangedRange[]): Promise<number> {
  if (ranges.length === 0) return 0;
  const result: [unknown[], number] = await runner.query(
    `WITH ranges AS (
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::smallint[], $4::timestamptz[], $5::timestamptz[]) AS r(org_id, device_id, channel, lo, hi)
     ), bounds AS (
       SELECT r.org_id, r.device_id, r.channel,
         (SELECT p.read_at FROM ingest.readings p WHERE p.org_id = r.org_id AND p.device_id = r.device_id AND p.channel = r.channel
            AND p.read_at < r.lo ORDER BY p.read_at DESC LIMIT 1) AS pred,
         r.lo,
         coalesce((SELECT n.read_at FROM ingest.readings n WHERE n.org_id = r.org_id AND n.device_id = r.device_id AND n.channel = r.channel
            AND n.read_at > r.hi ORDER BY n.read_at LIMIT 1), r.hi) AS hi
       FROM ranges r
     ), windowed AS (
       SELECT x.org_id, x.device_id, x.channel, x.read_at, x.value, x.prev_read_at AS old_prev, x.delta AS old_delta, x.reset AS old_reset,
         b.pred, lag(x.read_at) OVER w AS prev_read_at, lag(x.value) OVER w AS prev_value
       FROM bounds b JOIN ingest.readings x ON x.org_id = b.org_id AND x.device_id = b.device_id AND x.channel = b.channel
         AND x.read_at >= coalesce(b.pred, b.lo) AND x.read_at <= b.hi
       WINDOW w AS (PARTITION BY x.org_id, x.device_id, x.channel ORDER BY x.read_at)
     ), computed AS (
       SELECT org_id, device_id, channel, read_at, prev_read_at,
         CASE WHEN prev_read_at IS NULL OR value < prev_value THEN 0 ELSE value - prev_value END AS delta,
         coalesce(value < prev_value, false) AS reset
       FROM windowed
       -- the predecessor itself keeps its own interval; it is only the left edge here
       WHERE pred IS NULL OR read_at > pred
     )
     UPDATE ingest.readings t SET prev_read_at = c.prev_read_at, delta = c.delta, reset = c.reset
     FROM computed c
     WHERE t.org_id = c.org_id AND t.device_id = c.device_id AND t.channel = c.channel AND t.read_at = c.read_at
       AND (t.prev_read_at IS DISTINCT FROM c.prev_read_at OR t.delta <> c.delta OR t.reset <> c.reset)`,
    [ranges.map((r) => r.orgId), ranges.map((r) => r.deviceId), ranges.map((r) => r.channel), ranges.map((r) => r.lo), ranges.map((r) => r.hi)],
  );
  await recomputeCumulative(runner, ranges);
  return Array.isArray(result) && typeof result[1] === 'number' ? result[1] : 0;
}

/**
 * After a late reading or a correction, the running consumption of every
 * later reading of the channel moves: recompute it from the changed span's
 * predecessor to the channel's end (rare; appends never come here).
 */
async function recomputeCumulative(runner: QueryRunner, ranges: readonly ChangedRange[]) {
  await runner.query(
    `WITH ranges AS (
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::smallint[], $4::timestamptz[]) AS r(org_id, device_id, channel, lo)
     ), bases AS MATERIALIZED (
       -- Materialized: one backward probe per range. Inlined, the planner evaluated the probe once per later reading.
       SELECT r.*, coalesce((SELECT p.cum FROM ingest.readings p WHERE p.org_id = r.org_id AND p.device_id = r.device_id AND p.channel = r.channel
                               AND p.read_at < r.lo ORDER BY p.read_at DESC LIMIT 1), 0) AS base
       FROM ranges r
     ), computed AS (
       SELECT x.org_id, x.device_id, x.channel, x.read_at,
         b.base + sum(x.delta) OVER (PARTITION BY x.org_id, x.device_id, x.channel ORDER BY x.read_at) AS cum
       FROM bases b JOIN ingest.readings x ON x.org_id = b.org_id AND x.device_id = b.device_id AND x.channel = b.channel AND x.read_at >= b.lo
     )
     UPDATE ingest.readings t SET cum = c.cum FROM computed c
     WHERE t.org_id = c.org_id AND t.device_id = c.device_id AND t.channel = c.channel AND t.read_at = c.read_at AND t.cum <> c.cum`,
    [ranges.map((r) => r.orgId), ranges.map((r) => r.deviceId), ranges.map((r) => r.channel), ranges.map((r) => r.lo)],
  );
}

/** Creates the month partitions the readings need; outside the batch transaction (it is DDL). */
export async function ensurePartitions(query: (sql: string, params: unknown[]) => Promise<unknown>, readAts: Iterable<number>, known: Set<number>) {
  for (const month of monthsOf(readAts)) {
    if (known.has(month)) continue;
    await query('SELECT ingest.ensure_readings_partition($1::timestamptz)', [new Date(month).toISOString()]);
    known.add(month);
  }
}

/**
 * Recomputes every stored interval and running total of one device from its
 * stored register values (the source of truth), in the caller's transaction
 * under the device's lock. Returns the number of rows that changed.
 */
export async function rebuildIntervals(runner: QueryRunner, orgId: string, deviceId: number): Promise<number> {
  const result: [unknown[], number] = await runner.query(
    `WITH linked AS (
       SELECT channel, read_at, value, lag(read_at) OVER w AS prev, lag(value) OVER w AS prev_value
       FROM ingest.readings WHERE org_id = $1 AND device_id = $2
       WINDOW w AS (PARTITION BY channel ORDER BY read_at)
     ), intervals AS (
       SELECT channel, read_at, prev,
         CASE WHEN prev IS NULL OR value < prev_value THEN 0 ELSE value - prev_value END AS delta,
         coalesce(value < prev_value, false) AS reset
       FROM linked
     ), totals AS (
       SELECT *, sum(delta) OVER (PARTITION BY channel ORDER BY read_at) AS cum FROM intervals
     )
     UPDATE ingest.readings t SET prev_read_at = s.prev, delta = s.delta, reset = s.reset, cum = s.cum
     FROM totals s
     WHERE t.org_id = $1 AND t.device_id = $2 AND t.channel = s.channel AND t.read_at = s.read_at
       AND (t.prev_read_at IS DISTINCT FROM s.prev OR t.delta <> s.delta OR t.reset <> s.reset OR t.cum <> s.cum)`,
    [orgId, deviceId],
  );
  return Array.isArray(result) && typeof result[1] === 'number' ? result[1] : 0;
}
