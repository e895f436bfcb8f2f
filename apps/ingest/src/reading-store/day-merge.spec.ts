import { describe, expect, it } from 'vitest';
import { walkDay, type ReadingDay } from '@meter/read-model';
import { mergeChannel } from './day-merge';
import { at, DAY, dayRow } from './day-row.fixture';

const row = (readAt: number, value: number, seq: number) => ({ orgId: 'o', deviceId: 1, channel: 1, readAt, value, seq });
const intervals = (days: readonly ReadingDay[]) => {
  const out: [number, number | null, number, boolean, number][] = [];
  for (const d of days) walkDay(d, (_, readAt, prevAt, delta, reset, cum) => out.push([readAt, prevAt, delta, reset, cum]));
  return out;
};

describe('mergeChannel', () => {
  const first = dayRow(
    DAY,
    [
      [0, 10, 1],
      [1, 12, 2],
      [2, 13, 3],
    ],
    [null, 0, 0],
  );
  const second = dayRow(
    DAY + 1,
    [
      [0, 20, 4],
      [1, 21, 5],
    ],
    [at(DAY, 2), 13, 3],
  );

  it('appends after the latest reading into its day row, a new day row starting from it', () => {
    const merged = mergeChannel({ before: first, span: [], next: null, latest: first }, [row(at(DAY + 1, 5), 15, 9)]);
    expect(merged.appends).toHaveLength(1);
    expect(merged.late).toBeNull();
    expect(merged.latest).toEqual({ readAt: at(DAY, 2), value: 13, cum: 3 });
    expect(merged.writes).toEqual([dayRow(DAY + 1, [[5, 15, 9]], [at(DAY, 2), 13, 3])]);
  });

  it('a late reading splits its neighbour interval and moves the running total of later days', () => {
    const merged = mergeChannel({ before: null, span: [first], next: second, latest: second }, [row(at(DAY, 1.5), 12.5, 9)]);
    expect(merged.appends).toEqual([]);
    expect(merged.late).toEqual({ lo: at(DAY, 1.5), hi: at(DAY, 1.5), count: 1 });
    expect(merged.relinked).toBe(1); // the 02:00 reading now starts at 01:30
    expect(merged.writes.map((d) => d.day)).toEqual([DAY]);
    expect(merged.shift).toBe(0);
  });

  it('a correction of a day last reading rebases the next day row and shifts the ones after it', () => {
    const merged = mergeChannel({ before: null, span: [first], next: second, latest: second }, [row(at(DAY, 2), 18, 9)]);
    expect(merged.writes.map((d) => d.day)).toEqual([DAY, DAY + 1]);
    expect(intervals(merged.writes)).toEqual([
      [at(DAY, 0), null, 0, false, 0],
      [at(DAY, 1), at(DAY, 0), 2, false, 2],
      [at(DAY, 2), at(DAY, 1), 6, false, 8],
      [at(DAY + 1, 0), at(DAY, 2), 2, false, 10],
      [at(DAY + 1, 1), at(DAY + 1, 0), 1, false, 11],
    ]);
    // the old second day ended at 3 + 7 + 1 = 11 as well: nothing to move after it
    expect([merged.shiftAfter, merged.shift]).toEqual([DAY + 1, 0]);
  });

  it('a correction that turns a step into a reset moves the later days by the lost consumption', () => {
    const merged = mergeChannel({ before: null, span: [first], next: second, latest: second }, [row(at(DAY, 1), 5, 9)]);
    expect(intervals(merged.writes).slice(0, 3)).toEqual([
      [at(DAY, 0), null, 0, false, 0],
      [at(DAY, 1), at(DAY, 0), 0, true, 0],
      [at(DAY, 2), at(DAY, 1), 8, false, 8],
    ]);
    expect(merged.writes.map((d) => d.day)).toEqual([DAY, DAY + 1]);
    expect([merged.shiftAfter, merged.shift]).toEqual([DAY + 1, 5]);
  });

  it('repeats and stale redeliveries change nothing', () => {
    const merged = mergeChannel({ before: null, span: [first], next: null, latest: first }, [row(at(DAY, 1), 12, 2), row(at(DAY, 2), 99, 1)]);
    expect(merged).toMatchObject({ writes: [], late: null, appends: [], relinked: 0, shift: 0 });
  });
});
