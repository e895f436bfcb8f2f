import { describe, expect, it } from 'vitest';
import { packDay, type DayReading } from './day-pack';
import { readingDaysOf } from './day-rows';

const POSTGRES_EPOCH_MS = Date.UTC(2000, 0, 1);

/** A frame as `DAY_ROWS` sends it: day, whether a reading precedes it, its timestamptz_send, prev_value, cum_before, then the packed readings. */
function frame(day: number, prevAt: number | null, prevValue: number, cumBefore: number, readings: DayReading[]): Buffer {
  const packed = packDay(readings);
  const header = Buffer.alloc(33);
  header.writeInt32BE(day, 0);
  header[4] = prevAt === null ? 0 : 1;
  header.writeBigInt64BE(prevAt === null ? 0n : BigInt(prevAt - POSTGRES_EPOCH_MS) * 1000n, 5);
  header.writeDoubleBE(prevValue, 13);
  header.writeDoubleBE(cumBefore, 21);
  header.writeInt32BE(packed.length, 29);
  return Buffer.concat([header, packed]);
}

const DAY = 20_725; // 2026-09-29
const readings: DayReading[] = [
  { us: 0, value: 10.5, seq: 7 },
  { us: 3_600_000_000, value: 10.625, seq: 8 },
];

describe('readingDaysOf', () => {
  it('decodes the day rows, keeping a row two spans share once', () => {
    const first = frame(DAY, null, 0, 0, readings);
    const second = frame(DAY + 3, DAY * 86_400_000 + 3_600_000, 10.625, 0.125, [{ us: 5, value: 1, seq: 9 }]);
    expect(readingDaysOf(Buffer.concat([first, second, second]))).toEqual([
      { day: DAY, readings, prevAt: null, prevValue: 0, cumBefore: 0 },
      { day: DAY + 3, readings: [{ us: 5, value: 1, seq: 9 }], prevAt: DAY * 86_400_000 + 3_600_000, prevValue: 10.625, cumBefore: 0.125 },
    ]);
    expect(readingDaysOf(null)).toEqual([]);
  });

  it('refuses frames cut short or out of order', () => {
    const first = frame(DAY, null, 0, 0, readings);
    const second = frame(DAY + 1, DAY * 86_400_000, 10.625, 0.125, readings);
    expect(() => readingDaysOf(first.subarray(0, 20))).toThrow(RangeError);
    expect(() => readingDaysOf(first.subarray(0, first.length - 1))).toThrow(RangeError);
    expect(() => readingDaysOf(Buffer.concat([second, first]))).toThrow(/comes after/);
  });
});
