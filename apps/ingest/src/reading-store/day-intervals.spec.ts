import { describe, expect, it } from 'vitest';
import { collectAfter, firstAfter, firstReadAt, intervalsIn, lastBefore, lastFlowIn, lastReadAt } from './day-intervals';
import type { StoredInterval } from './reading-history';
import { at, DAY, dayRow } from './day-row.fixture';

// Two rows with two empty days between them; the second starts with a register reset.
const first = dayRow(
  DAY,
  [
    [1, 10],
    [5, 10],
    [9, 12],
  ],
  [null, 0, 0],
);
const second = dayRow(
  DAY + 3,
  [
    [2, 11],
    [4, 15],
  ],
  [at(DAY, 9), 12, 2],
);
const days = [first, second];

describe('intervalsIn', () => {
  it('answers the intervals of the readings inside the window, both ends included', () => {
    expect(intervalsIn(days, at(DAY, 5), at(DAY + 3, 2))).toEqual([
      { readAt: at(DAY, 5), delta: 0, cum: 0 },
      { readAt: at(DAY, 9), delta: 2, cum: 2 },
      { readAt: at(DAY + 3, 2), delta: 0, cum: 2 },
    ]);
  });
  it('answers nothing for a window between readings', () => {
    expect(intervalsIn(days, at(DAY, 10), at(DAY + 3, 1))).toEqual([]);
  });
});

describe('lastFlowIn', () => {
  it('finds the latest reading with consumption, a reset having none', () => {
    expect(lastFlowIn(days, at(DAY, 0), at(DAY + 3, 3))).toBe(at(DAY, 9));
    expect(lastFlowIn(days, at(DAY, 0), at(DAY + 3, 4))).toBe(at(DAY + 3, 4));
  });
  it('answers null without consumption in the window', () => {
    expect(lastFlowIn(days, at(DAY, 9) + 1, at(DAY + 3, 3))).toBeNull();
    expect(lastFlowIn([], at(DAY, 0), at(DAY + 9, 0))).toBeNull();
  });
});

describe('first and last readings of a row', () => {
  it('answers their instants, null for an empty row', () => {
    expect([firstReadAt(second), lastReadAt(second)]).toEqual([at(DAY + 3, 2), at(DAY + 3, 4)]);
    expect([firstReadAt(dayRow(DAY, [], [null, 0, 0])), lastReadAt(dayRow(DAY, [], [null, 0, 0]))]).toEqual([null, null]);
  });
});

describe('lastBefore', () => {
  it("answers the row's last reading strictly before the instant", () => {
    expect(lastBefore(second, at(DAY + 3, 3))).toBe(at(DAY + 3, 2));
    expect(lastBefore(first, at(DAY + 2, 0))).toBe(at(DAY, 9));
  });
  it("falls back to the reading before the row's day, null before the first", () => {
    expect(lastBefore(second, at(DAY + 3, 2))).toBe(at(DAY, 9));
    expect(lastBefore(first, at(DAY, 1))).toBeNull();
  });
});

describe('firstAfter', () => {
  it('answers the first reading strictly after the instant, across rows', () => {
    expect(firstAfter(days, at(DAY, 9))).toBe(at(DAY + 3, 2));
    expect(firstAfter(days, at(DAY, 0))).toBe(at(DAY, 1));
    expect(firstAfter(days, at(DAY + 3, 4))).toBeNull();
  });
});

describe('collectAfter', () => {
  it('collects the readings strictly after the instant up to the limit', () => {
    const out: StoredInterval[] = [];
    collectAfter(days, at(DAY, 5), 3, out);
    expect(out.map((r) => r.readAt)).toEqual([at(DAY, 9), at(DAY + 3, 2), at(DAY + 3, 4)]);
  });
  it('continues what earlier rows collected, from the first reading without an instant', () => {
    const out: StoredInterval[] = [];
    collectAfter([first], null, 4, out);
    collectAfter([second], null, 4, out);
    expect(out).toEqual([
      { readAt: at(DAY, 1), delta: 0, cum: 0 },
      { readAt: at(DAY, 5), delta: 0, cum: 0 },
      { readAt: at(DAY, 9), delta: 2, cum: 2 },
      { readAt: at(DAY + 3, 2), delta: 0, cum: 2 },
    ]);
  });
});
