import type { Queryable } from '@meter/read-model';
import type { ChannelKey } from './reading-batch';

/**
 * What ingest reads back of `ingest.readings` besides the batch's own
 * latest readings: the history the alert rules rebuild a channel's state
 * from, a device's first reading, the neighbours of changed spans, and a
 * channel's readings in order for a rebuild.
 */

/** A stored reading with the interval that ends at it (docs/read-model.md). */
export interface StoredInterval {
  readAt: number;
  /** consumption of the interval ending here; 0 on a reset */
  delta: number;
  /** running total of the channel up to here */
  cum: number;
}

const ms = (column: string) => `(extract(epoch from ${column}) * 1000)::float8`;

/** A channel's stored history around `upTo` (its latest reading when null), enough to rebuild its alert state. */
export interface ReadingHistory extends ChannelKey {
  /** the readings of the 26 hours up to `upTo`, oldest first */
  readings: StoredInterval[];
  firstAt: number | null;
  /** the latest reading with consumption inside the NO_FLOW window (null: none there) */
  lastFlowAt: number | null;
}

/**
 * The stored history of channels whose alert state must be rebuilt (late
 * readings changed it, or it predates the rules): one query, index ranges
 * only. `flowWindowMs`: how far before `upTo` to look for consumption.
 */
export async function readingHistories(
  db: Queryable,
  channels: readonly (ChannelKey & { upTo: number | null; flowWindowMs: number })[],
): Promise<ReadingHistory[]> {
  if (channels.length === 0) return [];
  const rows: { o: string; d: number; c: number; first_at: number | null; last_flow_at: number | null; at: number[] | null; delta: number[]; cum: number[] }[] =
    await db.query(
      `WITH k AS (
         SELECT o, d, c, flow_window,
           coalesce(up_to, (SELECT max(r.read_at) FROM ingest.readings r WHERE r.org_id = o AND r.device_id = d AND r.channel = c)) AS up_to
         FROM unnest($1::text[], $2::bigint[], $3::smallint[], $4::timestamptz[], $5::float8[]) AS u(o, d, c, up_to, flow_window)
       )
       SELECT k.o, k.d::float8 AS d, k.c::int AS c,
         (SELECT ${ms('min(r.read_at)')} FROM ingest.readings r WHERE r.org_id = k.o AND r.device_id = k.d AND r.channel = k.c) AS first_at,
         (SELECT ${ms('max(r.read_at)')} FROM ingest.readings r WHERE r.org_id = k.o AND r.device_id = k.d AND r.channel = k.c
            AND r.read_at <= k.up_to AND r.read_at >= k.up_to - k.flow_window * interval '1 millisecond' AND r.delta > 0) AS last_flow_at,
         w.at, w.delta, w.cum
       FROM k CROSS JOIN LATERAL (
         SELECT array_agg(${ms('r.read_at')} ORDER BY r.read_at) AS at, array_agg(r.delta ORDER BY r.read_at) AS delta, array_agg(r.cum ORDER BY r.read_at) AS cum
         FROM ingest.readings r WHERE r.org_id = k.o AND r.device_id = k.d AND r.channel = k.c
           AND r.read_at <= k.up_to AND r.read_at >= k.up_to - interval '26 hours') w`,
      [
        channels.map((c) => c.orgId),
        channels.map((c) => c.deviceId),
        channels.map((c) => c.channel),
        channels.map((c) => (c.upTo === null ? null : new Date(c.upTo).toISOString())),
        channels.map((c) => c.flowWindowMs),
      ],
    );
  return rows.map((r) => ({
    orgId: r.o,
    deviceId: r.d,
    channel: r.c,
    firstAt: r.first_at,
    lastFlowAt: r.last_flow_at,
    readings: (r.at ?? []).map((at, i) => ({ readAt: Number(at), delta: Number(r.delta[i]), cum: Number(r.cum[i]) })),
  }));
}

/** The instant of the device's first stored reading (epoch ms), or null without any. */
export async function firstReadingAt(db: Queryable, orgId: string, deviceId: number): Promise<number | null> {
  const [row]: { first: number | null }[] = await db.query(`SELECT ${ms('min(read_at)')} AS first FROM ingest.readings WHERE org_id = $1 AND device_id = $2`, [
    orgId,
    deviceId,
  ]);
  return row?.first ?? null;
}

/** Up to `limit` stored readings of a channel after `after` (epoch ms; null: from the first), oldest first. */
export async function readingsAfter(db: Queryable, key: ChannelKey, after: number | null, limit: number): Promise<StoredInterval[]> {
  const rows: { at: number; delta: number; cum: number }[] = await db.query(
    `SELECT ${ms('read_at')} AS at, delta, cum FROM ingest.readings
     WHERE org_id = $1 AND device_id = $2 AND channel = $3 AND ($4::float8 IS NULL OR read_at > to_timestamp($4::float8 / 1000))
     ORDER BY read_at LIMIT ${Number(limit)}`,
    [key.orgId, key.deviceId, key.channel, after],
  );
  return rows.map((r) => ({ readAt: r.at, delta: r.delta, cum: r.cum }));
}

/**
 * The spans stretched to their stored neighbours: from the reading before
 * `start` to the reading after `end` (each end kept where there is none).
 * A late reading or a correction changes the intervals that far.
 */
export async function widenToNeighbours<S extends ChannelKey & { start: number; end: number }>(db: Queryable, spans: readonly S[]): Promise<S[]> {
  if (spans.length === 0) return [];
  const rows: { i: number; lo: number | null; hi: number | null }[] = await db.query(
    `SELECT s.i::int AS i,
       (SELECT ${ms('p.read_at')} FROM ingest.readings p WHERE p.org_id = s.o AND p.device_id = s.d AND p.channel = s.c
          AND p.read_at < s.lo ORDER BY p.read_at DESC LIMIT 1) AS lo,
       (SELECT ${ms('n.read_at')} FROM ingest.readings n WHERE n.org_id = s.o AND n.device_id = s.d AND n.channel = s.c
          AND n.read_at > s.hi ORDER BY n.read_at LIMIT 1) AS hi
     FROM unnest($1::text[], $2::bigint[], $3::smallint[], $4::timestamptz[], $5::timestamptz[]) WITH ORDINALITY AS s(o, d, c, lo, hi, i)`,
    [
      spans.map((s) => s.orgId),
      spans.map((s) => s.deviceId),
      spans.map((s) => s.channel),
      spans.map((s) => new Date(s.start).toISOString()),
      spans.map((s) => new Date(s.end).toISOString()),
    ],
  );
  const widened = [...spans];
  for (const r of rows) {
    const span = spans[r.i - 1];
    widened[r.i - 1] = { ...span, start: r.lo ?? span.start, end: r.hi ?? span.end };
  }
  return widened;
}
