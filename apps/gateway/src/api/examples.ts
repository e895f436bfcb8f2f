import { noDataAlert, registerResetAlert, volumeFormat, type Alert, type VolumeFormat } from '@meter/consumption';

/**
 * The moment the examples of the gateway's document are taken at: Saturday
 * 21 November 2026, 10:17 in Madrid. Dates in the examples come from the
 * consumption library's own calendar functions for this instant.
 */
export const EXAMPLE_NOW = Date.UTC(2026, 10, 21, 9, 17);

/** Device 1042 of the examples: one channel, the registration defaults (m³, 3 decimal places, €) in Madrid. */
export const EXAMPLE_DEVICE = {
  id: 1042,
  name: 'Riverside Tower – main supply',
  zone: 'Europe/Madrid',
  serie: 'water',
  unit: 'm³',
  decimalPlaces: 3,
  currencySymbol: '€',
} as const;

/** Its November projection: 25.680 m³ over the 20 completed days, 1.85 € per m³. */
export const EXAMPLE_PROJECTION = {
  days_used_for_calculation: 20,
  total_days_in_month: 30,
  average_daily_consumption: 1.284,
  projected_value: 38.52,
  projected_cost: 71.26,
  calculation_date: '2026-11-21',
  projection_date: '2026-11-30',
} as const;

/** How the examples write volumes: in the example device's unit, or converted as `X-Unit` asks. */
export const EXAMPLE_VOLUMES = volumeFormat(EXAMPLE_DEVICE.unit);

/** A day's figures as the history routes show them: a day without readings is "0" with NO_DATA. */
export function exampleDay(
  value: number | 'no data',
  resets = 0,
  volumes: VolumeFormat = EXAMPLE_VOLUMES,
): { value: string; value_fmt: string; alerts: Alert[] } {
  if (value === 'no data') return { ...volumes.figures(0, 0), alerts: [noDataAlert()] };
  return { ...volumes.figures(value, EXAMPLE_DEVICE.decimalPlaces), alerts: resets ? [registerResetAlert(resets)] : [] };
}

/** `value_fmt` of an example figure. */
export const exampleWithUnit = (value: number, volumes: VolumeFormat = EXAMPLE_VOLUMES) => volumes.withUnit(value, EXAMPLE_DEVICE.decimalPlaces);
