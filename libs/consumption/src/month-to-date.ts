import { consumptionBetween } from './consumption';
import { Interval } from './interval';
import { startOfLocalDay, localDateOf, TimeZone } from './time-zone';

/**
 * Consumption of the current local month so far (the CURRENT_CONSUMPTION
 * panel): from the start of day 1 to now, which in practice means to the
 * latest reading.
 */
export function monthToDateConsumption(intervals: readonly Interval[], nowMs: number, zone: TimeZone): number {
  const today = localDateOf(nowMs, zone);
  return consumptionBetween(intervals, startOfLocalDay(`${today.slice(0, 8)}01`, zone), nowMs);
}
