import { describe, expect, it } from 'vitest';
import { consumptionBetween } from './consumption';
import { Interval } from './interval';

const at = (iso: string): number => Date.parse(iso);

// 22:00 -> 02:00 across midnight UTC, 8 units: 2 per hour.
const acrossMidnight: Interval = { start: at('2026-01-01T22:00:00Z'), end: at('2026-01-02T02:00:00Z'), delta: 8, reset: false };
const reset: Interval = { start: at('2026-01-02T02:00:00Z'), end: at('2026-01-02T06:00:00Z'), delta: 0, reset: true };
// 06:00 -> 18:00, 3 units: 0.25 per hour.
const daytime: Interval = { start: at('2026-01-02T06:00:00Z'), end: at('2026-01-02T18:00:00Z'), delta: 3, reset: false };
const all = [acrossMidnight, reset, daytime];

describe('consumptionBetween (linear spreading)', () => {
  it.each<[string, string, string, number]>([
    ['day before midnight gets 2 h of 4', '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z', 4],
    ['day after midnight gets the rest', '2026-01-02T00:00:00Z', '2026-01-03T00:00:00Z', 4 + 0 + 3],
    ['an hour either side of midnight', '2026-01-01T23:00:00Z', '2026-01-02T01:00:00Z', 4],
    ['inside the reset interval', '2026-01-02T02:00:00Z', '2026-01-02T06:00:00Z', 0],
    ['a quarter of the daytime interval', '2026-01-02T06:00:00Z', '2026-01-02T09:00:00Z', 0.75],
    ['a window containing everything', '2025-12-01T00:00:00Z', '2026-02-01T00:00:00Z', 11],
    ['before the first reading', '2025-12-01T00:00:00Z', '2026-01-01T22:00:00Z', 0],
    ['after the last reading', '2026-01-02T18:00:00Z', '2026-01-05T00:00:00Z', 0],
    ['empty window', '2026-01-02T00:00:00Z', '2026-01-02T00:00:00Z', 0],
    ['reversed window', '2026-01-03T00:00:00Z', '2026-01-01T00:00:00Z', 0],
  ])('%s', (_name, from, to, expected) => {
    expect(consumptionBetween(all, at(from), at(to))).toBe(expected);
  });

  it('does not depend on the order of the intervals', () => {
    expect(consumptionBetween([daytime, acrossMidnight], at('2026-01-02T00:00:00Z'), at('2026-01-02T12:00:00Z'))).toBe(5.5);
  });
});
