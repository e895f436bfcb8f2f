import { walkDay, type ReadingDay } from '@meter/read-model';

/**
 * Recomputing a channel's day-row bases from the packed values alone (the
 * source of truth), for `cli rebuild`: each row's reading before the day,
 * its value and the running total there follow from walking the rows before
 * it in day order. Pure; the loading and writing is day-rebuild.ts.
 */

/** Where a channel stands after a row: its last reading, the value there and the running total (null, 0, 0: no reading yet). */
export interface ChannelEnd {
  at: number | null;
  value: number;
  cum: number;
}

export const NO_READING: ChannelEnd = { at: null, value: 0, cum: 0 };

/** What rebasing consecutive rows of one channel found. */
export interface Rebased {
  /** the rows whose bases change, with their new bases */
  changed: ReadingDay[];
  /** readings whose derived values (interval start, delta, reset, running total) change with them */
  readings: number;
  /** where the channel stands after the last row, for the next page of rows */
  end: ChannelEnd;
}

/** Rebases `days` (one channel's, ascending, following each other) on `start`, the channel's state before the first. */
export function rebaseDays(days: readonly ReadingDay[], start: ChannelEnd): Rebased {
  const changed: ReadingDay[] = [];
  let readings = 0;
  let end = start;
  for (const day of days) {
    const rebased: ReadingDay = { ...day, prevAt: end.at, prevValue: end.value, cumBefore: end.cum };
    if (!sameBases(day, rebased)) {
      changed.push(rebased);
      readings += changedReadings(day, rebased);
    }
    end = walkDay(rebased);
  }
  return { changed, readings, end };
}

const sameBases = (a: ReadingDay, b: ReadingDay) => a.prevAt === b.prevAt && Object.is(a.prevValue, b.prevValue) && Object.is(a.cumBefore, b.cumBefore);

/** Readings of a row whose interval or running total differs between two bases (the rebuild's count, like the row store's rows). */
function changedReadings(before: ReadingDay, after: ReadingDay): number {
  const old: [number | null, number, boolean, number][] = [];
  walkDay(before, (_, __, prevAt, delta, reset, cum) => old.push([prevAt, delta, reset, cum]));
  let n = 0;
  let i = 0;
  walkDay(after, (_, __, prevAt, delta, reset, cum) => {
    const [p, d, r, c] = old[i++];
    if (p !== prevAt || !Object.is(d, delta) || r !== reset || !Object.is(c, cum)) n++;
  });
  return n;
}
