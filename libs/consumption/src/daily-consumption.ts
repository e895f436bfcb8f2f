import { Alert, noDataAlert, registerResetAlert } from './alert';
import { overlapShare } from './consumption';
import { Interval } from './interval';
import { LocalDate } from './local-date';
import { LocalDay } from './local-day';
import { ESTIMATED_INTERVAL_MS, Quality } from './quality';

export interface DailyConsumption {
  date: LocalDate;
  value: number;
  /** NO_DATA first, then REGISTER_RESET; empty when there is nothing to say */
  alerts: Alert[];
  quality: Quality;
}

/**
 * Consumption of each local day, with its alerts:
 * - NO_DATA when no interval overlaps the day for a positive time, i.e. the
 *   day lies wholly before the first or after the last reading. A day the
 *   readings cover only in part (the activation day; today up to the latest
 *   reading) gets the consumption of the covered part and no alert.
 * - REGISTER_RESET when a reading inside the day showed a decrease.
 * Its quality is MISSING without data, ESTIMATED when an interval longer than
 * 24 h overlaps it, ACTUAL otherwise (quality.ts).
 *
 * Intervals as `intervalsFromReadings` returns them (ordered, not overlapping)
 * take a binary-search path; any other array is scanned whole, still correct.
 */
export function dailyConsumption(intervals: readonly Interval[], days: readonly LocalDay[]): DailyConsumption[] {
  const ordered = isOrdered(intervals);
  return days.map((day) => {
    let value = 0;
    let covered = false;
    let resets = 0;
    let estimated = false;
    for (let i = ordered ? firstEndingAtOrAfter(intervals, day.start) : 0; i < intervals.length; i++) {
      const interval = intervals[i];
      if (ordered && interval.start >= day.end) break;
      value += overlapShare(interval, day.start, day.end);
      if (Math.min(interval.end, day.end) > Math.max(interval.start, day.start)) {
        covered = true;
        if (interval.end - interval.start > ESTIMATED_INTERVAL_MS) estimated = true;
      }
      // The decrease is seen by the later reading, so the reset belongs to the day of `end`.
      if (interval.reset && interval.end >= day.start && interval.end < day.end) resets++;
    }
    const alerts: Alert[] = [];
    if (!covered) alerts.push(noDataAlert());
    if (resets > 0) alerts.push(registerResetAlert(resets));
    return { date: day.date, value, alerts, quality: !covered ? 'MISSING' : estimated ? 'ESTIMATED' : 'ACTUAL' };
  });
}

function isOrdered(intervals: readonly Interval[]): boolean {
  for (let i = 1; i < intervals.length; i++) {
    if (intervals[i].start < intervals[i - 1].end) return false;
  }
  return true;
}

/** Index of the first interval whose end is >= instant (ends ascend in ordered input). */
function firstEndingAtOrAfter(intervals: readonly Interval[], instant: number): number {
  let low = 0;
  let high = intervals.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (intervals[middle].end < instant) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Total of several days (a month row of the three-month history): the sum of
 * their values, and one alert per code that any day carries, counting the days.
 */
export function sumDays(days: readonly DailyConsumption[]): { value: number; alerts: Alert[] } {
  let value = 0;
  const daysWith = new Map<Alert['code'], number>();
  for (const day of days) {
    value += day.value;
    for (const alert of day.alerts) daysWith.set(alert.code, (daysWith.get(alert.code) ?? 0) + 1);
  }
  const alerts: Alert[] = [];
  const noData = daysWith.get('NO_DATA');
  if (noData) alerts.push({ code: 'NO_DATA', message: `No readings cover ${plural(noData)}; they count 0.` });
  const resets = daysWith.get('REGISTER_RESET');
  if (resets) alerts.push({ code: 'REGISTER_RESET', message: `The register was reset on ${plural(resets)}.` });
  return { value, alerts };
}

function plural(days: number): string {
  return days === 1 ? '1 day' : `${days} days`;
}
