import { addDays, addMonths, daysInMonth, formatLocalDate, LocalDate, LocalMonth, parseLocalDate } from './local-date';
import { LocalDay, localDays } from './local-day';
import { localDateOf, TimeZone } from './time-zone';

export type ChartType = 'BAR' | 'LINE';

export type PeriodResolution = { ok: true; period: string; days: LocalDay[]; chartType: ChartType } | { ok: false; message: string };

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
/** Epoch-ms data cannot predate 1970; older months are refused rather than answered with NO_DATA. */
const FIRST_YEAR = 1970;
const EXPECTED = 'period must be 7D, 15D, CURRENT_MONTH or YYYY-MM';

/**
 * The local days a history period covers, oldest first, in the zone in
 * effect. `7D`, `15D` and `CURRENT_MONTH` end with today, which is still
 * running; `YYYY-MM` is the whole month, also when it is the current one.
 * Period names are case-sensitive. An ok: false answer is the caller's 400.
 */
export function resolvePeriod(period: string, nowMs: number, zone: TimeZone): PeriodResolution {
  const today = localDateOf(nowMs, zone);
  switch (period) {
    case '7D':
      return { ok: true, period, days: localDays(addDays(today, -6), today, zone), chartType: 'BAR' };
    case '15D':
      return { ok: true, period, days: localDays(addDays(today, -14), today, zone), chartType: 'BAR' };
    case 'CURRENT_MONTH':
      return { ok: true, period, days: localDays(firstOfMonth(today), today, zone), chartType: 'LINE' };
  }
  const match = MONTH.exec(period);
  if (!match) return { ok: false, message: `${EXPECTED}, got ${JSON.stringify(period)}` };
  const year = Number(match[1]);
  const month = Number(match[2]);
  if (year < FIRST_YEAR) return { ok: false, message: `period ${period} is before ${FIRST_YEAR}-01` };
  const first = formatLocalDate({ year, month, day: 1 });
  if (first > today) return { ok: false, message: `period ${period} is in the future (today is ${today} in ${zone})` };
  // "YYYY-MM is that whole month", the current one too (its days to come have no readings yet:
  // NO_DATA). CURRENT_MONTH is the form that stops at today.
  const last = formatLocalDate({ year, month, day: daysInMonth(year, month) });
  return { ok: true, period, days: localDays(first, last, zone), chartType: 'BAR' };
}

export interface MonthDays {
  /** `YYYY-MM` */
  month: LocalMonth;
  /** `YYYY-MM-01`, the row date of the three-month history */
  firstDate: LocalDate;
  /** the whole month; for the current month, day 1 to today */
  days: LocalDay[];
}

/** The current local month and the two before it, oldest first. */
export function lastThreeMonths(nowMs: number, zone: TimeZone): MonthDays[] {
  const today = localDateOf(nowMs, zone);
  const { year, month } = parseLocalDate(today);
  return [-2, -1, 0].map((back) => {
    const target = addMonths(year, month, back);
    const firstDate = formatLocalDate({ ...target, day: 1 });
    const lastDate = minDate(formatLocalDate({ ...target, day: daysInMonth(target.year, target.month) }), today);
    return { month: firstDate.slice(0, 7), firstDate, days: localDays(firstDate, lastDate, zone) };
  });
}

function firstOfMonth(date: LocalDate): LocalDate {
  return `${date.slice(0, 8)}01`;
}

function minDate(a: LocalDate, b: LocalDate): LocalDate {
  return a < b ? a : b;
}
