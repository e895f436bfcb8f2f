/**
 * A calendar date without a time zone, written `YYYY-MM-DD`.
 *
 * Calendar arithmetic is done on the proleptic Gregorian calendar through
 * UTC `Date` values, where every day has exactly 24 h; only `LocalDay`
 * attaches a date to real instants of a time zone.
 */
export type LocalDate = string;

/** A calendar month written `YYYY-MM`. */
export type LocalMonth = string;

const DAY_MS = 86_400_000;
const LOCAL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export interface DateParts {
  year: number;
  /** 1..12 */
  month: number;
  /** 1..31 */
  day: number;
}

/** True for a real date `YYYY-MM-DD` (so `2026-02-30` is false). */
export function isLocalDate(text: string): boolean {
  const match = LOCAL_DATE.exec(text);
  if (!match) return false;
  const month = Number(match[2]);
  const day = Number(match[3]);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(Number(match[1]), month);
}

/** Splits a `YYYY-MM-DD`; throws RangeError for anything else (a caller bug, not user input). */
export function parseLocalDate(date: LocalDate): DateParts {
  if (!isLocalDate(date)) throw new RangeError(`not a date YYYY-MM-DD: ${JSON.stringify(date)}`);
  return { year: Number(date.slice(0, 4)), month: Number(date.slice(5, 7)), day: Number(date.slice(8, 10)) };
}

export function formatLocalDate({ year, month, day }: DateParts): LocalDate {
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

/** Number of days of a month (month 1..12); February follows the Gregorian leap rule. */
export function daysInMonth(year: number, month: number): number {
  if (!Number.isInteger(year) || !Number.isInteger(month) || month < 1 || month > 12) {
    throw new RangeError(`not a month: ${year}-${month}`);
  }
  // Day 0 of the next month is the last day of this one.
  return new Date(utcMidnight(year, month + 1, 0)).getUTCDate();
}

/** The date `days` days after (negative: before) `date`. */
export function addDays(date: LocalDate, days: number): LocalDate {
  if (!Number.isInteger(days)) throw new RangeError(`not a whole number of days: ${days}`);
  const { year, month, day } = parseLocalDate(date);
  const moved = new Date(utcMidnight(year, month, day) + days * DAY_MS);
  return formatLocalDate({ year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() });
}

/** Every date from `from` to `to`, both included; empty when `to` is before `from`. */
export function datesBetween(from: LocalDate, to: LocalDate): LocalDate[] {
  const dates: LocalDate[] = [];
  for (let date = from; date <= to; date = addDays(date, 1)) dates.push(date);
  return dates;
}

/** `YYYY-MM` of a date. */
export function monthOf(date: LocalDate): LocalMonth {
  parseLocalDate(date);
  return date.slice(0, 7);
}

/** The month `months` months after (negative: before) the month of `year`/`month`. */
export function addMonths(year: number, month: number, months: number): { year: number; month: number } {
  const index = year * 12 + (month - 1) + months;
  return { year: Math.floor(index / 12), month: (((index % 12) + 12) % 12) + 1 };
}

/**
 * Epoch ms of 00:00 UTC of a date; `Date.UTC` alone would map years 0..99
 * to 1900..1999. Day and month may overflow (day 0 = last day of previous month).
 */
function utcMidnight(year: number, month: number, day: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getTime();
}

/** Wall-clock fields read as if they were UTC; the time zone code compares this with real instants. */
export function wallClockAsUtc(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  return utcMidnight(year, month, day) + ((hour * 60 + minute) * 60 + second) * 1000;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}
