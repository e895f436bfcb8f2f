import type { Interval, RaisedEpisode, RegisterReading } from '@meter/consumption';
import type { ClientBase } from 'pg';
import Cursor from 'pg-cursor';
import { intervalsOverlappingDays, readingAfter, readingAtOrBefore } from './readings/day-answers';
import { DAY_ROWS, instantOf, readingDaysOf } from './readings/day-rows';
import { dayOf } from './readings/reading-day';

/**
 * What the batch export reads of one channel of one device for one local
 * day: the same intervals the history route reads for it, and the readings
 * around the day's two ends for the register columns.
 */
export interface ChannelDay {
  deviceId: number;
  channel: number;
  unit: string;
  decimalPlaces: number;
  /** the channel's stored intervals overlapping [start, end), as `intervalsOverlapping` */
  intervals: Interval[];
  /** the latest reading at or before the day's start, and the first after it */
  startBefore?: RegisterReading;
  startAfter?: RegisterReading & { reset: boolean };
  /** the same around the day's end (the next day's start) */
  endBefore?: RegisterReading;
  endAfter?: RegisterReading & { reset: boolean };
  /** the channel's alert episodes raised inside the day, oldest first (its alerts list their codes, as history's do) */
  raised: RaisedEpisode[];
}

/**
 * One row per device and channel of the organization activated before the
 * day's end, ordered by device id then channel: per channel, the compact
 * store's day rows of [start, end], the last before and the first after
 * them, which hold the intervals overlapping the day and the readings around
 * both ends, in one pass over the devices' primary key with index probes.
 */
const EXPORT_DAY_SQL = `
  SELECT d.device_id::float8 AS device_id, c.channel, d.unit, d.decimal_places,
    ${DAY_ROWS([{ first: '$4', last: '$5', before: true, after: 1 }])} AS days,
    (SELECT coalesce(json_agg(json_build_object('code', e.code, 'raisedAt', (extract(epoch from e.raised_at) * 1000)::float8, 'message', e.message)
                              ORDER BY e.raised_at), '[]'::json)
     FROM ingest.alert_episodes e
     WHERE e.org_id = d.org_id AND e.device_id = d.device_id AND e.channel = c.channel
       AND e.raised_at >= $2::timestamptz AND e.raised_at < $3::timestamptz) AS raised
  FROM ingest.devices d CROSS JOIN LATERAL generate_series(1, d.channels) AS c(channel)
  WHERE d.org_id = $1 AND d.activated_at < $3::timestamptz
  ORDER BY d.device_id, c.channel`;

interface ExportDayRow {
  device_id: number;
  channel: number;
  unit: string;
  decimal_places: number;
  days: Buffer | null;
  raised: RaisedEpisode[];
}

function toChannelDay(r: ExportDayRow, start: number, end: number): ChannelDay {
  const days = readingDaysOf(r.days);
  return {
    deviceId: r.device_id,
    channel: r.channel,
    unit: r.unit,
    decimalPlaces: r.decimal_places,
    intervals: intervalsOverlappingDays(days, start, end),
    startBefore: readingAtOrBefore(days, start),
    startAfter: readingAfter(days, start),
    endBefore: readingAtOrBefore(days, end),
    endAfter: readingAfter(days, end),
    raised: r.raised,
  };
}

/** The devices of one export day (EXPORT_DAY_SQL's): the largest decimal places among them, 0 without any. */
const EXPORT_DAY_DECIMAL_PLACES_SQL = `
  SELECT coalesce(max(d.decimal_places), 0)::int AS places FROM ingest.devices d WHERE d.org_id = $1 AND d.activated_at < $2::timestamptz`;

/**
 * The largest decimal places of the devices `streamExportDay` streams for a
 * day ending at `end`: what a typed file's decimal columns are scaled to
 * before its first row. Run it in the same snapshot as the stream.
 */
export async function exportDayDecimalPlaces(client: ClientBase, orgId: string, end: number): Promise<number> {
  const { rows } = await client.query<{ places: number }>(EXPORT_DAY_DECIMAL_PLACES_SQL, [orgId, new Date(end).toISOString()]);
  return rows[0].places;
}

/**
 * Streams one local day [start, end) of an organization's fleet through a
 * server-side cursor, `batchRows` rows at a time, so memory does not grow
 * with the fleet. Run it inside the caller's transaction on `client`
 * (REPEATABLE READ gives every batch the same snapshot).
 */
export async function* streamExportDay(client: ClientBase, orgId: string, start: number, end: number, batchRows = 2000): AsyncGenerator<ChannelDay[]> {
  const [from, to] = [instantOf(start), instantOf(end)];
  const cursor = client.query(
    new Cursor<ExportDayRow>(EXPORT_DAY_SQL, [
      orgId,
      new Date(from).toISOString(),
      new Date(to).toISOString(),
      dayOf(Math.min(from, to)),
      dayOf(Math.max(from, to)),
    ]),
  );
  try {
    for (;;) {
      const rows = await cursor.read(batchRows);
      if (rows.length === 0) return;
      yield rows.map((r) => toChannelDay(r, from, to));
    }
  } finally {
    await cursor.close();
  }
}
