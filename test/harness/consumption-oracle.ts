import {
  consumptionBetween,
  localDateOf,
  projectionFromConsumption,
  projectionWindow,
  startOfLocalDay,
  type Interval,
  type Projection,
  type Tariff,
  type TimeZone,
} from '@meter/consumption';

/**
 * The month's figures computed from a channel's intervals in memory: the
 * reference the SQL read model and the projection rules are checked against.
 */

/** Consumption of the current local month so far (the CURRENT_CONSUMPTION panel): from the start of day 1 to now. */
export function monthToDateConsumption(intervals: readonly Interval[], nowMs: number, zone: TimeZone): number {
  const today = localDateOf(nowMs, zone);
  return consumptionBetween(intervals, startOfLocalDay(`${today.slice(0, 8)}01`, zone), nowMs);
}

/** The projection of the current local month (docs/consumption.md) from one channel's intervals. */
export function projectMonth(intervals: readonly Interval[], nowMs: number, zone: TimeZone, pricing: number | Tariff): Projection {
  const window = projectionWindow(nowMs, zone);
  return projectionFromConsumption(window, consumptionBetween(intervals, window.from, window.to), pricing);
}
