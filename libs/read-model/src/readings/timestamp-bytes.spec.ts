import { describe, expect, it } from 'vitest';
import { epochMsAt } from './timestamp-bytes';

const POSTGRES_EPOCH_US = 946_684_800_000_000n;

/** What Postgres sends: `timestamptz_send`, int64 µs since 2000. */
function sent(microseconds: bigint): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigInt64BE(microseconds - POSTGRES_EPOCH_US);
  return bytes;
}

const us = (ms: number) => BigInt(ms) * 1000n;

/**
 * `(extract(epoch from t) * 1000)::float8`, what the row queries read:
 * the exact decimal µs / 1000, rounded once to a double (through its decimal text, as numeric -> float8 does).
 */
function oldEpochMs(microseconds: bigint): number {
  const negative = microseconds < 0n;
  const magnitude = negative ? -microseconds : microseconds;
  return Number(`${negative ? '-' : ''}${magnitude / 1000n}.${(magnitude % 1000n).toString().padStart(3, '0')}`);
}

describe('epochMsAt', () => {
  // Timestamps as the row queries turned them into numbers, the double for double.
  it.each([
    ['2026-11-21 10:17:00.123', us(Date.UTC(2026, 10, 21, 10, 17, 0, 123))],
    ['2000-01-01 00:00 (Postgres epoch)', 946_684_800_000_000n],
    ['1970-01-01 00:00', 0n],
    ['1969-12-31 23:59:59.999', -1000n],
    ['microseconds, after 1970', 1_763_720_220_123_457n],
    ['microseconds, before 1970', -1_234_567n],
    ['microseconds, 1999-12-31 23:59:59.999999', 946_684_799_999_999n],
    ['0001-01-01 00:00 (beyond 2^53 µs)', us(new Date('0001-01-01T00:00:00Z').getTime())],
    ['9999-12-31 23:59:59.999 (beyond 2^53 µs)', us(new Date('9999-12-31T23:59:59.999Z').getTime())],
    ['2255-06-05 23:47:34.740992 (2^53 µs)', 9_007_199_254_740_992n],
  ])('timestamp %s', (_, microseconds) => {
    expect(Object.is(epochMsAt(sent(microseconds), 0), oldEpochMs(microseconds))).toBe(true);
    const inside = Buffer.concat([Buffer.from([7, 7, 7]), sent(microseconds)]);
    expect(Object.is(epochMsAt(inside, 3), oldEpochMs(microseconds))).toBe(true);
  });
});
