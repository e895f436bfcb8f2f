import { addDays, datesBetween, LocalDate } from './local-date';
import { startOfLocalDay, TimeZone } from './time-zone';

/**
 * A local calendar day as the half-open span of instants [start, end).
 * `end` is the next day's start, so days tile time with no gap or overlap:
 * 23 h and 25 h on DST changes (24.5 h at Lord Howe), 24 h elsewhere.
 */
export interface LocalDay {
  date: LocalDate;
  /** epoch ms, included */
  start: number;
  /** epoch ms, excluded */
  end: number;
}

export function localDay(date: LocalDate, zone: TimeZone): LocalDay {
  return { date, start: startOfLocalDay(date, zone), end: startOfLocalDay(addDays(date, 1), zone) };
}

/** The local days from `from` to `to`, both included, oldest first. */
export function localDays(from: LocalDate, to: LocalDate, zone: TimeZone): LocalDay[] {
  const dates = datesBetween(from, to);
  if (dates.length === 0) return [];
  // Each boundary is computed once: day i ends where day i + 1 starts.
  const starts = [...dates, addDays(to, 1)].map((date) => startOfLocalDay(date, zone));
  return dates.map((date, i) => ({ date, start: starts[i], end: starts[i + 1] }));
}
