import { readAtOf, walkDay, type ReadingDay } from '@meter/read-model';
import type { StoredInterval } from './reading-history';

/**
 * What ingest reads of a channel's stored intervals, answered from its day
 * rows of the compact store. Pure: the rows are loaded elsewhere. Each row
 * carries the channel's reading before its day (`prevAt`, `prevValue`,
 * `cumBefore`), so any row alone gives its readings' intervals: a window
 * needs only the rows of its days, never the history before them.
 */

/** The intervals of the readings in [from, to] (epoch ms), oldest first; `days` ascending. */
export function intervalsIn(days: readonly ReadingDay[], from: number, to: number): StoredInterval[] {
  const out: StoredInterval[] = [];
  for (const day of days)
    walkDay(day, (_, readAt, __, delta, ___, cum) => {
      if (readAt >= from && readAt <= to) out.push({ readAt, delta, cum });
    });
  return out;
}

/** The latest reading in [from, to] with consumption (delta > 0), or null; `days` ascending. */
export function lastFlowIn(days: readonly ReadingDay[], from: number, to: number): number | null {
  // Newest day first: the search usually ends in the latest row.
  for (let i = days.length - 1; i >= 0; i--) {
    let found: number | null = null;
    walkDay(days[i], (_, readAt, __, delta) => {
      if (delta > 0 && readAt >= from && readAt <= to) found = readAt;
    });
    if (found !== null) return found;
  }
  return null;
}

/** The instant of a row's first reading (null: an empty row, which the store never keeps). */
export const firstReadAt = (day: ReadingDay): number | null => (day.readings.length ? readAtOf(day.day, day.readings[0].us) : null);

/** The instant of a row's last reading. */
export const lastReadAt = (day: ReadingDay): number | null => (day.readings.length ? readAtOf(day.day, day.readings[day.readings.length - 1].us) : null);

/**
 * The channel's last reading before `at`, from its last row of a day up to
 * `at`'s: that row's last reading before `at`, else the reading before the
 * row's day (`prevAt`).
 */
export function lastBefore(day: ReadingDay, at: number): number | null {
  for (let i = day.readings.length - 1; i >= 0; i--) {
    const readAt = readAtOf(day.day, day.readings[i].us);
    if (readAt < at) return readAt;
  }
  return day.prevAt;
}

/** The first reading after `at` among rows ascending by day, or null. */
export function firstAfter(days: readonly ReadingDay[], at: number): number | null {
  for (const day of days)
    for (const reading of day.readings) {
      const readAt = readAtOf(day.day, reading.us);
      if (readAt > at) return readAt;
    }
  return null;
}

/** Appends the intervals of the readings after `after` (null: all) to `out` until it holds `limit`; `days` ascending. */
export function collectAfter(days: readonly ReadingDay[], after: number | null, limit: number, out: StoredInterval[]): void {
  for (const day of days) {
    if (out.length >= limit) return;
    walkDay(day, (_, readAt, __, delta, ___, cum) => {
      if (out.length < limit && (after === null || readAt > after)) out.push({ readAt, delta, cum });
    });
  }
}
