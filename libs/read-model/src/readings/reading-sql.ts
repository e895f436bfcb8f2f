import type { Interval } from '@meter/consumption';
import { packedInterval, unpackIntervals } from './packed-intervals';

/**
 * SQL fragments over `ingest.readings` that the read model's queries share;
 * `d` is an `ingest.devices` row and `c.channel` a channel of it.
 */

/**
 * The channel's intervals overlapping [from, to) (timestamptz parameters),
 * oldest first, packed in one bytea (see packed-intervals.ts): those ending
 * inside, and the one spanning `to`. One ending exactly at `from` is included:
 * it adds nothing to [from, to), but a reset it reads belongs to the day that
 * starts at `from` (a reading at midnight), as `dailyConsumption` counts it.
 */
export const PACKED_INTERVALS = (from: string, to: string) => `
  coalesce((SELECT string_agg(${packedInterval('i')}, ''::bytea)
            FROM (SELECT r.prev_read_at, r.read_at, r.delta, r.reset FROM ingest.readings r
                  WHERE r.org_id = d.org_id AND r.device_id = d.device_id AND r.channel = c.channel
                    AND r.read_at >= ${from} AND r.read_at < ${to} AND r.prev_read_at IS NOT NULL
                  ORDER BY r.read_at) i), ''::bytea)
  || coalesce((SELECT CASE WHEN n.prev_read_at < ${to} THEN ${packedInterval('n')} END
               FROM (SELECT r.prev_read_at, r.read_at, r.delta, r.reset FROM ingest.readings r
                     WHERE r.org_id = d.org_id AND r.device_id = d.device_id AND r.channel = c.channel AND r.read_at >= ${to}
                     ORDER BY r.read_at LIMIT 1) n), ''::bytea)`;

/** Channel -> intervals from rows of `PACKED_INTERVALS`; channels without any are absent. */
export function intervalsByChannel(rows: readonly { channel: number; packed: Buffer }[]): Map<number, Interval[]> {
  const byChannel = new Map<number, Interval[]>();
  for (const r of rows) if (r.packed.length > 0) byChannel.set(r.channel, unpackIntervals(r.packed));
  return byChannel;
}

export /** The channel's running total at an instant (a timestamptz parameter), for `d` and `c` of the outer query. */
const RUNNING_TOTAL_AT = (at: string) => `
  coalesce(
    (SELECT CASE WHEN n.prev_read_at IS NULL OR n.read_at = ${at}::timestamptz THEN n.cum
                 ELSE n.cum - n.delta * (extract(epoch from n.read_at - ${at}::timestamptz) * 1000)::float8
                                      / (extract(epoch from n.read_at - n.prev_read_at) * 1000)::float8 END
     FROM ingest.readings n WHERE n.org_id = d.org_id AND n.device_id = d.device_id AND n.channel = c.channel AND n.read_at >= ${at}::timestamptz
     ORDER BY n.read_at LIMIT 1),
    (SELECT l.cum FROM ingest.readings l WHERE l.org_id = d.org_id AND l.device_id = d.device_id AND l.channel = c.channel AND l.read_at < ${at}::timestamptz
     ORDER BY l.read_at DESC LIMIT 1),
    0)::float8`;

/** One reading as 17 bytes: `timestamptz_send(read_at)` (8), `float8send(value)` (8), `boolsend(reset)` (1). */
export const READING_AT = (op: '<=' | '>', at: string) => `
  (SELECT timestamptz_send(r.read_at) || float8send(r.value) || boolsend(r.reset) FROM ingest.readings r
   WHERE r.org_id = d.org_id AND r.device_id = d.device_id AND r.channel = c.channel AND r.read_at ${op} ${at}
   ORDER BY r.read_at ${op === '<=' ? 'DESC' : 'ASC'} LIMIT 1)`;

/**
 * The channel's first interval ending after an instant, as a LATERAL subquery answering `prev_read_at`
 * (nothing when no interval ends after it). A subquery with LIMIT stays a per-channel index probe:
 * the planner cannot turn it into a join over whole partitions.
 */
export const FIRST_INTERVAL_AFTER = (at: string) => `
  SELECT r.prev_read_at FROM ingest.readings r
  WHERE r.org_id = d.org_id AND r.device_id = d.device_id AND r.channel = c.channel AND r.read_at > ${at} AND r.prev_read_at IS NOT NULL
  ORDER BY r.read_at LIMIT 1`;

/** One row when the channel read a register reset inside [from, to), as a LATERAL subquery: a range scan of the window. */
export const RESET_READ_BETWEEN = (from: string, to: string) => `
  SELECT 1 FROM ingest.readings r
  WHERE r.org_id = d.org_id AND r.device_id = d.device_id AND r.channel = c.channel AND r.read_at >= ${from} AND r.read_at < ${to} AND r.reset
  LIMIT 1`;
