import type { Interval } from '@meter/consumption';

/**
 * Intervals travel from Postgres packed into one `bytea` per channel instead
 * of one row each: a history of 3 months of hourly readings is 2,200 rows,
 * and node-postgres spends far more on parsing that many rows (and Postgres
 * on `extract(epoch ...)` in numeric) than on the data itself.
 *
 * Each interval is 25 bytes, the types' own binary send formats:
 * `timestamptz_send(prev_read_at)` (8), `timestamptz_send(read_at)` (8),
 * `float8send(delta)` (8), `boolsend(reset)` (1). Timestamps are big-endian
 * int64 microseconds since 2000-01-01 UTC, the double bit-exact.
 */
export const PACKED_INTERVAL_BYTES = 25;

/** SQL: one interval of the readings row `r` (its `prev_read_at`, `read_at`, `delta`, `reset`) as 25 bytes. */
export const packedInterval = (r: string) =>
  `timestamptz_send(${r}.prev_read_at) || timestamptz_send(${r}.read_at) || float8send(${r}.delta) || boolsend(${r}.reset)`;

const POSTGRES_EPOCH_US = 946_684_800_000_000; // 2000-01-01 in µs since 1970
const TWO_TO_32 = 4_294_967_296;

/**
 * Epoch ms of a packed timestamp: the same double as
 * `(extract(epoch from t) * 1000)::float8`, i.e. the exact number of
 * microseconds / 1000, rounded once.
 */
export function epochMsAt(bytes: Buffer, offset: number): number {
  const us = bytes.readInt32BE(offset) * TWO_TO_32 + bytes.readUInt32BE(offset + 4) + POSTGRES_EPOCH_US;
  if (Number.isSafeInteger(us)) return us / 1000;
  // Beyond ±2^53 µs of 1970 (before 1685 or after 2255): exact in BigInt, then whole ms + the µs rest.
  const exact = bytes.readBigInt64BE(offset) + BigInt(POSTGRES_EPOCH_US);
  return Number(exact / 1000n) + Number(exact % 1000n) / 1000;
}

/** The intervals of one channel, oldest first, from the concatenation of packed intervals. */
export function unpackIntervals(bytes: Buffer): Interval[] {
  if (bytes.length % PACKED_INTERVAL_BYTES !== 0) throw new RangeError(`packed intervals: ${bytes.length} bytes is not a multiple of ${PACKED_INTERVAL_BYTES}`);
  const intervals: Interval[] = [];
  let ordered = true;
  for (let offset = 0; offset < bytes.length; offset += PACKED_INTERVAL_BYTES) {
    const interval: Interval = {
      start: epochMsAt(bytes, offset),
      end: epochMsAt(bytes, offset + 8),
      delta: bytes.readDoubleBE(offset + 16),
      reset: bytes[offset + 24] !== 0,
    };
    if (intervals.length > 0 && interval.end <= intervals[intervals.length - 1].end) ordered = false;
    intervals.push(interval);
  }
  // The SQL aggregates an ordered subquery, which Postgres follows in practice
  // but does not promise: never hand on intervals out of order.
  return ordered ? intervals : intervals.sort((a, b) => a.end - b.end);
}
