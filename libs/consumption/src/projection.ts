import { addDays, daysInMonth, formatLocalDate, LocalDate, parseLocalDate } from './local-date';
import { flatTariff, monthCost, type Tariff } from './tariff';
import { startOfLocalDay, localDateOf, TimeZone } from './time-zone';

/** Days the 1st of a month averages over, having no completed day of its own (docs/consumption.md). */
export const FIRST_DAY_LOOKBACK_DAYS = 7;

/**
 * Which completed local days the projection of the current month averages.
 * A SQL-backed caller sums consumption over [from, to) itself and hands the
 * number to `projectionFromConsumption`.
 */
export interface ProjectionWindow {
  /** today, local: the date the projection is made on */
  calculationDate: LocalDate;
  /** last day of the current month */
  projectionDate: LocalDate;
  /** first averaged day */
  firstDate: LocalDate;
  /** last averaged day (yesterday) */
  lastDate: LocalDate;
  /** epoch ms, start of `firstDate` */
  from: number;
  /** epoch ms, start of today: the end of `lastDate` */
  to: number;
  daysUsed: number;
  totalDaysInMonth: number;
}

/** Field names as the projection route shows them; the caller adds unit, currency and device. */
export interface Projection {
  days_used_for_calculation: number;
  total_days_in_month: number;
  average_daily_consumption: number;
  projected_value: number;
  projected_cost: number;
  calculation_date: LocalDate;
  projection_date: LocalDate;
}

/**
 * Days 1 .. yesterday of the current month; on the 1st, the 7 days before it
 * (which lie in the previous month). Today is never used: it is incomplete.
 */
export function projectionWindow(nowMs: number, zone: TimeZone): ProjectionWindow {
  const today = localDateOf(nowMs, zone);
  const { year, month, day } = parseLocalDate(today);
  const totalDaysInMonth = daysInMonth(year, month);
  const daysUsed = day === 1 ? FIRST_DAY_LOOKBACK_DAYS : day - 1;
  const firstDate = addDays(today, -daysUsed);
  return {
    calculationDate: today,
    projectionDate: formatLocalDate({ year, month, day: totalDaysInMonth }),
    firstDate,
    lastDate: addDays(today, -1),
    from: startOfLocalDay(firstDate, zone),
    to: startOfLocalDay(today, zone),
    daysUsed,
    totalDaysInMonth,
  };
}

/**
 * The projection from the consumption of the window's days. Days without
 * readings count 0, as the contract divides by day of month - 1 regardless.
 * Numbers are not rounded: round for display, not before multiplying.
 * `pricing`: a tariff, or a price per unit (one open block, no standing charge).
 */
export function projectionFromConsumption(window: ProjectionWindow, windowConsumption: number, pricing: number | Tariff): Projection {
  const average = windowConsumption / window.daysUsed;
  const projected = average * window.totalDaysInMonth;
  const tariff = typeof pricing === 'number' ? flatTariff(pricing, '') : pricing;
  return {
    days_used_for_calculation: window.daysUsed,
    total_days_in_month: window.totalDaysInMonth,
    average_daily_consumption: average,
    projected_value: projected,
    projected_cost: monthCost(tariff, projected, window.totalDaysInMonth),
    calculation_date: window.calculationDate,
    projection_date: window.projectionDate,
  };
}
