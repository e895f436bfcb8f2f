import type { Alert } from './alert';

/**
 * The decimal places a day's value is written with: a day the readings do
 * not cover is exactly "0" (the statement that nothing was measured), any
 * other day has the device's decimal places. The history route and the
 * batch export both write a day's value with it.
 */
export function dayDecimalPlaces(day: { alerts: readonly Alert[] }, decimalPlaces: number): number {
  return day.alerts.some((a) => a.code === 'NO_DATA') ? 0 : decimalPlaces;
}
