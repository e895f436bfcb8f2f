import { describe, expect, it } from 'vitest';
import { Interval, intervalsFromReadings } from './interval';
import { Reading } from './reading';

const r = (readAt: number, value: number): Reading => ({ readAt, value });
const i = (start: number, end: number, delta: number, reset = false): Interval => ({ start, end, delta, reset });

describe('intervalsFromReadings', () => {
  it.each<[string, Reading[], Interval[]]>([
    ['no readings', [], []],
    ['one reading', [r(0, 10)], []],
    ['consecutive readings', [r(0, 10), r(1000, 15), r(3000, 15)], [i(0, 1000, 5), i(1000, 3000, 0)]],
    ['out-of-order input is sorted', [r(3000, 20), r(0, 10), r(1000, 12)], [i(0, 1000, 2), i(1000, 3000, 8)]],
    [
      'a decrease is a reset: counts 0, new value is the base',
      [r(0, 100), r(1000, 130), r(2000, 5), r(3000, 9)],
      [i(0, 1000, 30), i(1000, 2000, 0, true), i(2000, 3000, 4)],
    ],
    ['duplicated timestamp: the last in input order wins', [r(0, 10), r(1000, 15), r(1000, 18), r(2000, 20)], [i(0, 1000, 8), i(1000, 2000, 2)]],
    ['a correction arriving last wins even out of order', [r(1000, 18), r(2000, 20), r(0, 10), r(1000, 15)], [i(0, 1000, 5), i(1000, 2000, 5)]],
    ['a correction can turn a reset into a normal interval', [r(0, 10), r(1000, 4), r(1000, 14)], [i(0, 1000, 4)]],
    ['all readings at one instant', [r(5, 1), r(5, 2)], []],
  ])('%s', (_name, readings, expected) => {
    expect(intervalsFromReadings(readings)).toEqual(expected);
  });

  it.each([[r(Number.NaN, 1)], [r(0, Number.POSITIVE_INFINITY)]])('refuses a non-finite reading %j', (bad) => {
    expect(() => intervalsFromReadings([r(0, 0), bad])).toThrow(RangeError);
  });
});
