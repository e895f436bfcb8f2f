/**
 * Timestamps as Postgres sends them in binary (`timestamptz_send`: big-endian
 * int64 microseconds since 2000-01-01 UTC), read as epoch ms: the day rows'
 * `prev_at` travels that way inside the packed rows a query returns.
 */

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
