import type { Interval } from '@meter/consumption';
import type { LatestReading, Queryable } from '../records';
import { firstIntervalStartAfter, intervalsOverlappingDays, latestReadingOf, resetReadBetween, runningTotalAt } from './day-answers';
import { aroundDay, DAY_ROWS, instantOf, LAST_DAY_ROW, readingDaysOf } from './day-rows';
import { dayOf } from './reading-day';

/**
 * The readings questions the gateway, the exporter and the console ask, answered
 * from the compact store (`ingest.reading_days`). Each loads only the day rows
 * its question needs (day-rows.ts) and answers with day-answers.ts.
 */

const CHANNELS_OF_DEVICES = `FROM ingest.devices d CROSS JOIN LATERAL generate_series(1, d.channels) AS c(channel)
     WHERE d.org_id = $1 AND d.device_id = ANY($2::bigint[])`;

/** `intervalsOverlapping`: the rows of the window's days and the first after them. */
export async function intervalsOverlapping(db: Queryable, orgId: string, deviceId: number, from: number, to: number): Promise<Map<number, Interval[]>> {
  const [start, end] = [instantOf(from), instantOf(to)];
  const rows: { channel: number; days: Buffer | null }[] = await db.query(
    `SELECT c.channel, ${DAY_ROWS([{ first: '$3', last: '$4', after: 1 }])} AS days
     FROM ingest.devices d CROSS JOIN LATERAL generate_series(1, d.channels) AS c(channel)
     WHERE d.org_id = $1 AND d.device_id = $2`,
    [orgId, deviceId, dayOf(Math.min(start, end)), dayOf(end)],
  );
  const byChannel = new Map<number, Interval[]>();
  for (const r of rows) {
    const intervals = intervalsOverlappingDays(readingDaysOf(r.days), start, end);
    if (intervals.length > 0) byChannel.set(r.channel, intervals);
  }
  return byChannel;
}

/** `consumptionInWindow`: the running totals at both ends, from the rows around each (six probes per channel whatever the window). */
export async function consumptionInWindow(
  db: Queryable,
  orgId: string,
  deviceIds: readonly number[],
  from: number,
  to: number,
): Promise<Map<number, Map<number, number>>> {
  const [start, end] = [instantOf(from), instantOf(to)];
  const rows: { device_id: number; channel: number; days: Buffer | null }[] = await db.query(
    `SELECT d.device_id::float8 AS device_id, c.channel, ${DAY_ROWS([aroundDay('$3'), aroundDay('$4')])} AS days ${CHANNELS_OF_DEVICES}`,
    [orgId, deviceIds, dayOf(start), dayOf(end)],
  );
  const result = new Map<number, Map<number, number>>();
  for (const r of rows) {
    const days = readingDaysOf(r.days);
    const channels = result.get(r.device_id) ?? new Map<number, number>();
    channels.set(r.channel, runningTotalAt(days, end) - runningTotalAt(days, start));
    result.set(r.device_id, channels);
  }
  return result;
}

/** `coveredChannels`: the row of `from`'s day and the two after it hold the first interval ending after `from`. */
export async function coveredChannels(db: Queryable, orgId: string, deviceIds: readonly number[], from: number, to: number): Promise<Map<number, Set<number>>> {
  const [start, end] = [instantOf(from), instantOf(to)];
  const rows: { device_id: number; channel: number; days: Buffer | null }[] = await db.query(
    `SELECT d.device_id::float8 AS device_id, c.channel, ${DAY_ROWS([{ first: '$3', last: '$3', after: 2 }])} AS days ${CHANNELS_OF_DEVICES}`,
    [orgId, deviceIds, dayOf(start)],
  );
  const result = new Map<number, Set<number>>();
  for (const r of rows) {
    const startsAt = firstIntervalStartAfter(readingDaysOf(r.days), start);
    if (startsAt !== undefined && startsAt < end) result.set(r.device_id, (result.get(r.device_id) ?? new Set()).add(r.channel));
  }
  return result;
}

/** `resetsInWindow`: the window's days that read a reset (one probe per channel into the partial index of `has_reset`). */
export async function resetsInWindow(db: Queryable, orgId: string, deviceIds: readonly number[], from: number, to: number): Promise<Set<string>> {
  const [start, end] = [instantOf(from), instantOf(to)];
  const rows: { device_id: number; channel: number; days: Buffer | null }[] = await db.query(
    `SELECT d.device_id::float8 AS device_id, c.channel, ${DAY_ROWS([{ first: '$3', last: '$4', resets: true }])} AS days ${CHANNELS_OF_DEVICES}`,
    [orgId, deviceIds, dayOf(start), dayOf(end)],
  );
  return new Set(rows.filter((r) => resetReadBetween(readingDaysOf(r.days), start, end)).map((r) => `${r.device_id}:${r.channel}`));
}

/** `latestReadings`: the last reading of each channel's last day row (a backward index probe). */
export async function latestReadings(db: Queryable, orgId: string, deviceIds: readonly number[]): Promise<LatestReading[]> {
  const rows: { device_id: number; channel: number; days: Buffer | null }[] = await db.query(
    `SELECT d.device_id::float8 AS device_id, c.channel, ${LAST_DAY_ROW} AS days ${CHANNELS_OF_DEVICES}`,
    [orgId, deviceIds],
  );
  const latest: LatestReading[] = [];
  for (const r of rows) {
    const reading = latestReadingOf(readingDaysOf(r.days));
    if (reading) latest.push({ deviceId: r.device_id, channel: r.channel, readAt: reading.readAt, value: reading.value });
  }
  return latest;
}

/** `storedReadingCount`: the day rows' reading counts, summed. */
export async function storedReadingCount(db: Queryable, orgId: string): Promise<number> {
  const [row]: { n: number }[] = await db.query(`SELECT coalesce(sum(reading_count), 0)::float8 AS n FROM ingest.reading_days WHERE org_id = $1`, [orgId]);
  return row.n;
}
