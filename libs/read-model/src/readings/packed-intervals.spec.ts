import { describe, expect, it } from 'vitest';
import type { Interval } from '@meter/consumption';
import { PACKED_INTERVAL_BYTES, unpackIntervals } from './packed-intervals';

const POSTGRES_EPOCH_US = 946_684_800_000_000n;

/** What Postgres sends: `timestamptz_send` x2 (int64 µs since 2000), `float8send`, `boolsend`. */
function pack(items: { startUs: bigint; endUs: bigint; delta: number; reset: boolean }[]): Buffer {
  const bytes = Buffer.alloc(items.length * PACKED_INTERVAL_BYTES);
  items.forEach((item, i) => {
    const at = i * PACKED_INTERVAL_BYTES;
    bytes.writeBigInt64BE(item.startUs - POSTGRES_EPOCH_US, at);
    bytes.writeBigInt64BE(item.endUs - POSTGRES_EPOCH_US, at + 8);
    bytes.writeDoubleBE(item.delta, at + 16);
    bytes[at + 24] = item.reset ? 1 : 0;
  });
  return bytes;
}

const us = (ms: number) => BigInt(ms) * 1000n;

/**
 * `(extract(epoch from t) * 1000)::float8`, the row query the packed form replaced:
 * the exact decimal µs / 1000, rounded once to a double (through its decimal text, as numeric -> float8 does).
 */
function oldEpochMs(microseconds: bigint): number {
  const negative = microseconds < 0n;
  const magnitude = negative ? -microseconds : microseconds;
  return Number(`${negative ? '-' : ''}${magnitude / 1000n}.${(magnitude % 1000n).toString().padStart(3, '0')}`);
}

describe('unpackIntervals', () => {
  it('reads hourly intervals as the row query did', () => {
    const t0 = Date.UTC(2026, 9, 25, 0, 30);
    const expected: Interval[] = [0, 1, 2].map((i) => ({
      start: t0 + i * 3600_000,
      end: t0 + (i + 1) * 3600_000,
      delta: [0.1 + 0.2, 0, 1e-17][i],
      reset: i === 1,
    }));
    const bytes = pack(expected.map((e) => ({ startUs: us(e.start), endUs: us(e.end), delta: e.delta, reset: e.reset })));
    expect(unpackIntervals(bytes)).toEqual(expected);
    expect(unpackIntervals(Buffer.alloc(0))).toEqual([]);
  });

  // Timestamps as the old query turned them into numbers, the double for double.
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
    const [interval] = unpackIntervals(pack([{ startUs: microseconds - 3_600_000_000n, endUs: microseconds, delta: 0.5, reset: false }]));
    expect(Object.is(interval.end, oldEpochMs(microseconds))).toBe(true);
    expect(Object.is(interval.start, oldEpochMs(microseconds - 3_600_000_000n))).toBe(true);
  });

  it('keeps deltas bit for bit', () => {
    const deltas = [0, 0.025000000000090949, 123456.789, Number.MIN_VALUE, 2 ** 53 + 2, 1 / 3];
    const t0 = Date.UTC(2026, 0, 1);
    const unpacked = unpackIntervals(pack(deltas.map((delta, i) => ({ startUs: us(t0 + i), endUs: us(t0 + i + 1), delta, reset: false }))));
    expect(unpacked.map((i) => i.delta)).toEqual(deltas);
  });

  it('puts intervals in order of their end whatever order they came in', () => {
    const t0 = Date.UTC(2026, 0, 1);
    const items = [2, 0, 1].map((i) => ({ startUs: us(t0 + i * 10), endUs: us(t0 + i * 10 + 10), delta: i, reset: false }));
    expect(unpackIntervals(pack(items)).map((i) => i.delta)).toEqual([0, 1, 2]);
  });

  it('refuses a length that is not whole intervals', () => {
    expect(() => unpackIntervals(Buffer.alloc(PACKED_INTERVAL_BYTES + 3))).toThrow(RangeError);
  });
});
