import type { ReadingDay } from '@meter/read-model';

/** Day rows written by hand for the pure specs of the compact store: hours of one day, values, sequences. */

export const H = 3_600_000;
export const DAY = 20_400; // 2025-11-08
export const at = (day: number, hour: number) => day * 86_400_000 + hour * H;

/** A day row: its readings as [hour, value, seq?] (seq defaults to the reading's index) and its bases [prevAt, prevValue, cumBefore]. */
export const dayRow = (
  d: number,
  readings: [hour: number, value: number, seq?: number][],
  prev: [at: number | null, value: number, cum: number],
): ReadingDay => ({
  day: d,
  readings: readings.map(([hour, value, seq], i) => ({ us: hour * H * 1000, value, seq: seq ?? i })),
  prevAt: prev[0],
  prevValue: prev[1],
  cumBefore: prev[2],
});
