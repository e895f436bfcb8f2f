import type { Interval } from '@meter/consumption';
import { readAtOf, walkDay, type ReadingDay } from './reading-day';

/**
 * What the row store's SQL fragments (reading-sql.ts) answer, computed over
 * one channel's day rows of the compact store, ascending by day. Each row
 * carries the channel's reading before it, so the rows need not be
 * consecutive: a question about an instant t needs the row of t's day, the
 * last row before it and the first row after it (`day-rows.ts` loads
 * exactly those), a question about a window the rows of its days. Readings
 * are whole milliseconds (as ingest stores them), so instants and their
 * differences are exact doubles, as the SQL's.
 */

/** A stored reading with the interval ending at it: one row of `ingest.readings`. */
interface StoredReading {
  readAt: number;
  value: number;
  prevAt: number | null;
  delta: number;
  reset: boolean;
  cum: number;
}

/** A reading of the register with whether it read a reset: what `READING_AT` answers. */
export interface ReadingWithReset {
  readAt: number;
  value: number;
  reset: boolean;
}

function storedReadings(day: ReadingDay): StoredReading[] {
  const readings: StoredReading[] = [];
  walkDay(day, (reading, readAt, prevAt, delta, reset, cum) => readings.push({ readAt, value: reading.value, prevAt, delta, reset, cum }));
  return readings;
}

const firstReadAt = (day: ReadingDay) => readAtOf(day.day, day.readings[0].us);
const lastReadAt = (day: ReadingDay) => readAtOf(day.day, day.readings[day.readings.length - 1].us);

/** The first stored reading after `at` (at or after it with `inclusive`): in the first row reaching past it. */
function firstAfter(days: readonly ReadingDay[], at: number, inclusive: boolean): StoredReading | undefined {
  const day = days.find((d) => (inclusive ? lastReadAt(d) >= at : lastReadAt(d) > at));
  return day && storedReadings(day).find((r) => (inclusive ? r.readAt >= at : r.readAt > at));
}

/**
 * `PACKED_INTERVALS`: the intervals ending in [from, to) (the channel's first
 * reading has none), then the first one ending at or after `to` if it starts
 * before `to`. Needs the rows of the days of [min(from, to), to] and the
 * first after them.
 */
export function intervalsOverlappingDays(days: readonly ReadingDay[], from: number, to: number): Interval[] {
  const intervals: Interval[] = [];
  // A window ending before it starts has nothing inside, but still the interval spanning its end, as the SQL.
  const earliest = Math.min(from, to);
  for (const day of days) {
    if (lastReadAt(day) < earliest) continue;
    for (const r of storedReadings(day)) {
      if (r.readAt < earliest) continue;
      if (r.readAt >= to) {
        if (r.prevAt !== null && r.prevAt < to) intervals.push({ start: r.prevAt, end: r.readAt, delta: r.delta, reset: r.reset });
        return intervals;
      }
      if (r.prevAt !== null) intervals.push({ start: r.prevAt, end: r.readAt, delta: r.delta, reset: r.reset });
    }
  }
  return intervals;
}

/**
 * `RUNNING_TOTAL_AT`: for the first reading n at or after `at`,
 * `cum - delta * (read_at - at) / (read_at - prev_read_at)` in milliseconds
 * (the same double operations in the same order), its `cum` when it has no
 * interval or is at `at`; past the last reading its `cum`; 0 before any.
 */
export function runningTotalAt(days: readonly ReadingDay[], at: number): number {
  const n = firstAfter(days, at, true);
  if (!n) return days.length === 0 ? 0 : walkDay(days[days.length - 1]).cum;
  if (n.prevAt === null || n.readAt === at) return n.cum;
  return n.cum - (n.delta * (n.readAt - at)) / (n.readAt - n.prevAt);
}

/** `READING_AT('<=', at)`: the latest reading at or before `at`. */
export function readingAtOrBefore(days: readonly ReadingDay[], at: number): ReadingWithReset | undefined {
  for (let i = days.length - 1; i >= 0; i--) {
    if (firstReadAt(days[i]) > at) continue;
    const r = storedReadings(days[i]).findLast((s) => s.readAt <= at)!;
    return { readAt: r.readAt, value: r.value, reset: r.reset };
  }
  return undefined;
}

/** `READING_AT('>', at)`: the first reading after `at`. */
export function readingAfter(days: readonly ReadingDay[], at: number): ReadingWithReset | undefined {
  const r = firstAfter(days, at, false);
  return r && { readAt: r.readAt, value: r.value, reset: r.reset };
}

/**
 * `FIRST_INTERVAL_AFTER`: the start of the first interval ending after `at`.
 * When the first reading after `at` is the channel's first, the interval is
 * the next reading's: in the same row or the next one, so the question needs
 * the row of `at`'s day and the two rows after it.
 */
export function firstIntervalStartAfter(days: readonly ReadingDay[], at: number): number | undefined {
  for (const day of days) {
    if (lastReadAt(day) <= at) continue;
    const r = storedReadings(day).find((s) => s.readAt > at && s.prevAt !== null);
    if (r) return r.prevAt!;
  }
  return undefined;
}

/** `RESET_READ_BETWEEN`: whether a reading in [from, to) read a register reset. */
export function resetReadBetween(days: readonly ReadingDay[], from: number, to: number): boolean {
  return days.some((day) => lastReadAt(day) >= from && firstReadAt(day) < to && storedReadings(day).some((r) => r.reset && r.readAt >= from && r.readAt < to));
}

/** The channel's latest reading: the last of its last row. */
export function latestReadingOf(days: readonly ReadingDay[]): { readAt: number; value: number } | undefined {
  if (days.length === 0) return undefined;
  const last = days[days.length - 1];
  return { readAt: lastReadAt(last), value: last.readings[last.readings.length - 1].value };
}
