import { describe, expect, it } from 'vitest';
import { walkDay } from '@meter/read-model';
import { NO_READING, rebaseDays } from './day-rebase';
import { at, DAY, dayRow } from './day-row.fixture';

const first = dayRow(
  DAY,
  [
    [1, 10],
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

describe('rebaseDays', () => {
  it('changes nothing on right bases and ends where the last row ends', () => {
    expect(rebaseDays([first, second], NO_READING)).toEqual({ changed: [], readings: 0, end: { at: at(DAY + 3, 4), value: 15, cum: 6 } });
  });

  it('restores a wrong running total, every reading of the row changing', () => {
    const rebased = rebaseDays([first, { ...second, cumBefore: -1 }], NO_READING);
    expect(rebased.changed).toEqual([second]);
    expect(rebased.readings).toBe(2);
  });

  it("counts only the readings a wrong base changes: the first one's interval start", () => {
    expect(rebaseDays([first, { ...second, prevAt: at(DAY, 8) }], NO_READING)).toMatchObject({ changed: [second], readings: 1 });
  });

  it('counts a changed delta and every later total of the row', () => {
    // prev value 9 instead of 12: the first reading no reset (delta 2), the second's total moves too
    expect(rebaseDays([first, { ...second, prevValue: 9 }], NO_READING)).toMatchObject({ changed: [second], readings: 2 });
  });

  it('continues from the state a previous page ended in', () => {
    expect(rebaseDays([second], walkDay(first))).toMatchObject({ changed: [], readings: 0 });
    const alone = rebaseDays([second], NO_READING);
    expect(alone.changed).toEqual([{ ...second, prevAt: null, prevValue: 0, cumBefore: 0 }]);
    expect(alone.end).toEqual({ at: at(DAY + 3, 4), value: 15, cum: 4 });
  });
});
