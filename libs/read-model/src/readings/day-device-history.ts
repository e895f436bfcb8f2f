import type { Interval } from '@meter/consumption';
import type { DeviceHistory } from '../device-history';
import { DEVICE_COLUMNS, toDevice, type DeviceRow } from '../devices/device-columns';
import type { Queryable } from '../records';
import { intervalsOverlappingDays, runningTotalAt } from './day-answers';
import { aroundDay, DAY_ROWS, instantOf, readingDaysOf, type DaySpan } from './day-rows';
import { dayOf } from './reading-day';

/**
 * device-history.ts's `deviceHistory` answered from the compact store, in
 * one round trip as well: per channel, the day rows of [from, to] and the
 * first after them, and given a window the rows around its two ends. The
 * same answer as the row store's (test/reading-days-readers.e2e.spec.ts).
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
