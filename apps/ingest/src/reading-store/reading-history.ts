import { DAY_MS, dayOf, type Queryable, type ReadingDay } from '@meter/read-model';
import type { ChannelKey } from './reading-batch';
import { collectAfter, firstAfter, firstReadAt, intervalsIn, lastBefore, lastFlowIn, lastReadAt } from './day-intervals';
import { DAY_ROW_COLUMNS, readingDayOf, type DayRowColumns } from './day-row';

/**
 * What ingest reads back of the compact store (`ingest.reading_days`)
 * besides the batch's own day rows: the history the alert rules rebuild a
 * channel's state from, a device's first reading, the neighbours of changed
 * spans, and a channel's readings in order for a rebuild of its alerts. Each
 * loads only the day rows it needs, by index probes and ranges on the
 * primary key (org, device, channel, day), and derives the intervals in TS
 * (day-intervals.ts).
 */

/** A stored reading with the interval that ends at it (docs/read-model.md). */
export interface StoredInterval {
  readAt: number;
  /** consumption of the interval ending here; 0 on a reset */
  delta: number;
  /** running total of the channel up to here */
  cum: number;
}

/** A channel's stored history around `upTo` (its latest reading when null), enough to rebuild its alert state. */
export interface ReadingHistory extends ChannelKey {
  /** the readings of the 26 hours up to `upTo`, oldest first */
  readings: StoredInterval[];
  firstAt: number | null;
  /** the latest reading with consumption inside the NO_FLOW window (null: none there) */
  lastFlowAt: number | null;
}

const HISTORY_MS = 26 * 3_600_000;
const SAME_CHANNEL = 'r.org_id = k.o AND r.device_id = k.d AND r.channel = k.c';

/**
 * `readingHistories`: per channel, its first row and the rows of the days
 * from `upTo` back over the longer of the 26 hours and the flow window (the
 * latest row's day when `upTo` is null), in one query.
 */
export async function readingHistories(
  db: Queryable,
  channels: readonly (ChannelKey & { upTo: number | null; flowWindowMs: number })[],
): Promise<ReadingHistory[]> {
  if (channels.length === 0) return [];
  const reach = channels.map((c) => Math.max(HISTORY_MS, c.flowWindowMs));
  const rows: (DayRowColumns & { i: number; first: boolean })[] = await db.query(
    `SELECT k.i::int AS i, x.* FROM unnest($1::text[], $2::bigint[], $3::smallint[], $4::int[], $5::int[]) WITH ORDINALITY AS k(o, d, c, top, back, i)
     -- OFFSET 0 keeps the latest-day probe evaluated once per channel, not once per use of \`top\`
     CROSS JOIN LATERAL (SELECT coalesce(date '1970-01-01' + k.top, (SELECT max(r.day) FROM ingest.reading_days r WHERE ${SAME_CHANNEL})) AS top OFFSET 0) t
     CROSS JOIN LATERAL (
       (SELECT true AS first, ${DAY_ROW_COLUMNS} FROM ingest.reading_days r WHERE ${SAME_CHANNEL} ORDER BY r.day LIMIT 1)
       UNION ALL
       (SELECT false, ${DAY_ROW_COLUMNS} FROM ingest.reading_days r WHERE ${SAME_CHANNEL} AND r.day <= t.top AND r.day >= t.top - k.back)
     ) x`,
    [
      channels.map((c) => c.orgId),
      channels.map((c) => c.deviceId),
      channels.map((c) => c.channel),
      channels.map((c) => (c.upTo === null ? null : dayOf(c.upTo))),
      // Without `upTo` it lies somewhere in the latest row's day: reach back from that day's start.
      channels.map((c, i) => (c.upTo === null ? Math.ceil(reach[i] / DAY_MS) : dayOf(c.upTo) - dayOf(c.upTo - reach[i]))),
    ],
  );
  const firsts: (ReadingDay | undefined)[] = [];
  const windows: ReadingDay[][] = channels.map(() => []);
  for (const row of rows) {
    if (row.first) firsts[row.i - 1] = readingDayOf(row);
    else windows[row.i - 1].push(readingDayOf(row));
  }
  return channels.map(({ orgId, deviceId, channel, upTo, flowWindowMs }, i) => {
    const days = windows[i].sort((a, b) => a.day - b.day);
    const first = firsts[i];
    const end = upTo ?? (days.length ? lastReadAt(days[days.length - 1]) : null);
    return {
      orgId,
      deviceId,
      channel,
      firstAt: first ? firstReadAt(first) : null,
      lastFlowAt: end === null ? null : lastFlowIn(days, end - flowWindowMs, end),
      readings: end === null ? [] : intervalsIn(days, end - HISTORY_MS, end),
    };
  });
}

/**
 * `firstReadingAt`: the device's channels by a skip scan of the primary key
 * (one probe per channel), each channel's first row, the earliest reading.
 */
export async function firstReadingAt(db: Queryable, orgId: string, deviceId: number): Promise<number | null> {
  const rows: DayRowColumns[] = await db.query(
    `WITH RECURSIVE channels AS (
       (SELECT r.channel FROM ingest.reading_days r WHERE r.org_id = $1 AND r.device_id = $2 ORDER BY r.channel LIMIT 1)
       UNION ALL
       SELECT (SELECT r.channel FROM ingest.reading_days r WHERE r.org_id = $1 AND r.device_id = $2 AND r.channel > c.channel ORDER BY r.channel LIMIT 1)
       FROM channels c WHERE c.channel IS NOT NULL
     )
     SELECT x.* FROM channels c CROSS JOIN LATERAL (
       SELECT ${DAY_ROW_COLUMNS} FROM ingest.reading_days r WHERE r.org_id = $1 AND r.device_id = $2 AND r.channel = c.channel ORDER BY r.day LIMIT 1
     ) x`,
    [orgId, deviceId],
  );
  let first: number | null = null;
  for (const row of rows) {
    const at = firstReadAt(readingDayOf(row));
    if (at !== null && (first === null || at < first)) first = at;
  }
  return first;
}

/** Rows per round trip of `readingsAfter`: the first page small (a chunk often ends a day in), doubling up to the last. */
const FIRST_PAGE_ROWS = 4;
const LAST_PAGE_ROWS = 512;

/** `readingsAfter`: the channel's rows from `after`'s day on, in pages, until `limit` readings are collected. */
export async function readingsAfter(db: Queryable, key: ChannelKey, after: number | null, limit: number): Promise<StoredInterval[]> {
  const out: StoredInterval[] = [];
  let from = after === null ? null : dayOf(after);
  for (let page = FIRST_PAGE_ROWS; out.length < limit; page = Math.min(2 * page, LAST_PAGE_ROWS)) {
    const rows: DayRowColumns[] = await db.query(
      `SELECT ${DAY_ROW_COLUMNS} FROM ingest.reading_days r
       WHERE r.org_id = $1 AND r.device_id = $2 AND r.channel = $3 ${from === null ? '' : `AND r.day >= date '1970-01-01' + $4::int`}
       ORDER BY r.day LIMIT ${page}`,
      from === null ? [key.orgId, key.deviceId, key.channel] : [key.orgId, key.deviceId, key.channel, from],
    );
    collectAfter(rows.map(readingDayOf), after, limit, out);
    if (rows.length < page) break;
    from = rows[rows.length - 1].day + 1;
  }
  return out;
}

/**
 * `widenToNeighbours`: per span, the row of the last day up to its start
 * (its last reading before the start, else the row's `prev_at`) and the
 * first two rows from its end's day on (the first reading after the end is
 * in one of them), in one query.
 */
export async function widenToNeighbours<S extends ChannelKey & { start: number; end: number }>(db: Queryable, spans: readonly S[]): Promise<S[]> {
  if (spans.length === 0) return [];
  const rows: (DayRowColumns & { i: number; side: 'before' | 'after' })[] = await db.query(
    `SELECT k.i::int AS i, x.* FROM unnest($1::text[], $2::bigint[], $3::smallint[], $4::int[], $5::int[]) WITH ORDINALITY AS k(o, d, c, lo, hi, i)
     CROSS JOIN LATERAL (
       (SELECT 'before' AS side, ${DAY_ROW_COLUMNS} FROM ingest.reading_days r
        WHERE ${SAME_CHANNEL} AND r.day <= date '1970-01-01' + k.lo ORDER BY r.day DESC LIMIT 1)
       UNION ALL
       (SELECT 'after', ${DAY_ROW_COLUMNS} FROM ingest.reading_days r
        WHERE ${SAME_CHANNEL} AND r.day >= date '1970-01-01' + k.hi ORDER BY r.day LIMIT 2)
     ) x`,
    [spans.map((s) => s.orgId), spans.map((s) => s.deviceId), spans.map((s) => s.channel), spans.map((s) => dayOf(s.start)), spans.map((s) => dayOf(s.end))],
  );
  const before: (ReadingDay | undefined)[] = [];
  const after: ReadingDay[][] = spans.map(() => []);
  for (const row of rows) {
    if (row.side === 'before') before[row.i - 1] = readingDayOf(row);
    else after[row.i - 1].push(readingDayOf(row));
  }
  return spans.map((span, i) => {
    const lo = before[i] ? lastBefore(before[i], span.start) : null;
    const hi = firstAfter(
      after[i].sort((a, b) => a.day - b.day),
      span.end,
    );
    return { ...span, start: lo ?? span.start, end: hi ?? span.end };
  });
}
