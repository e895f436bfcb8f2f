import type { RaisedEpisode } from '@meter/consumption';
import type { ClientBase } from 'pg';
import Cursor from 'pg-cursor';
import type { ChannelDay } from '../export-day';
import { intervalsOverlappingDays, readingAfter, readingAtOrBefore } from './day-answers';
import { DAY_ROWS, instantOf, readingDaysOf } from './day-rows';
import { dayOf } from './reading-day';

/**
 * export-day.ts's `streamExportDay` answered from the compact store: the
 * same rows, one per device and channel, through a cursor as well. Per
 * channel it loads the day rows of [start, end], the last before and the
 * first after them: the intervals overlapping the day and the readings
 * around both ends all lie in those. (`exportDayDecimalPlaces` reads only
 * devices and stays as it is.)
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

/**
 * Streams one local day [start, end) of an organization's fleet through a
 * server-side cursor, `batchRows` rows at a time, as `streamExportDay` does.
 * Run it inside the caller's transaction on `client`.
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
