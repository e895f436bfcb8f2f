import type { Interval } from '@meter/consumption';
import { DEVICE_COLUMNS, toDevice, type DeviceRow } from './devices/device-columns';
import type { DeviceRecord, Queryable } from './records';
import { intervalsOverlappingDays, runningTotalAt } from './readings/day-answers';
import { aroundDay, DAY_ROWS, instantOf, readingDaysOf, type DaySpan } from './readings/day-rows';
import { dayOf } from './readings/reading-day';

export interface DeviceHistory {
  device: DeviceRecord;
  /** channel -> its intervals overlapping [from, to), as `intervalsOverlapping` */
  intervals: Map<number, Interval[]>;
  /** channel -> consumption inside the window, as `consumptionInWindow`; empty without a window */
  windowConsumption: Map<number, number>;
}

/**
 * Everything a history answer reads, in one round trip: the device, each
 * channel's intervals overlapping [from, to) and, given a window, each
 * channel's consumption inside it (the month projection), from the day rows
 * of [from, to] and the first after them and the rows around the window's
 * ends. The same answers as `findDevices`, `intervalsOverlapping` and
 * `consumptionInWindow`. Undefined when the organization has no such device.
 */
export async function deviceHistory(
  db: Queryable,
  orgId: string,
  deviceId: number,
  from: number,
  to: number,
  window?: { from: number; to: number },
): Promise<DeviceHistory | undefined> {
  const [start, end] = [instantOf(from), instantOf(to)];
  const sums = window && { from: instantOf(window.from), to: instantOf(window.to) };
  const spans: DaySpan[] = [{ first: '$3', last: '$4', after: 1 }, ...(sums ? [aroundDay('$5'), aroundDay('$6')] : [])];
  const rows: (DeviceRow & { channel: number; days: Buffer | null })[] = await db.query(
    `SELECT ${DEVICE_COLUMNS}, c.channel, ${DAY_ROWS(spans)} AS days
     FROM ingest.devices d CROSS JOIN LATERAL generate_series(1, d.channels) AS c(channel)
     WHERE d.org_id = $1 AND d.device_id = $2`,
    [orgId, deviceId, dayOf(Math.min(start, end)), dayOf(end), ...(sums ? [dayOf(sums.from), dayOf(sums.to)] : [])],
  );
  if (rows.length === 0) return undefined;
  const intervals = new Map<number, Interval[]>();
  const windowConsumption = new Map<number, number>();
  for (const r of rows) {
    // One list serves both questions: each needs its rows, and rows between them change neither answer.
    const days = readingDaysOf(r.days);
    const overlapping = intervalsOverlappingDays(days, start, end);
    if (overlapping.length > 0) intervals.set(r.channel, overlapping);
    if (sums) windowConsumption.set(r.channel, runningTotalAt(days, sums.to) - runningTotalAt(days, sums.from));
  }
  return { device: toDevice(rows[0]), intervals, windowConsumption };
}
