import type { QueryRunner } from 'typeorm';
import { dayHasReset, type ReadingDay } from '@meter/read-model';
import { rebaseDays, NO_READING, type ChannelEnd } from './day-rebase';
import { DAY_ROW_COLUMNS, readingDayOf, type DayRowColumns } from './day-row';

/** Day rows per round trip: a page of a few hundred KB, whatever the device's history. */
export const REBUILD_PAGE_ROWS = 1000;

/**
 * `rebuildIntervals` for the compact store: recomputes the bases
 * (`prev_at`, `prev_value`, `cum_before`) of every day row of one device
 * from the packed values, each channel in day order, in the caller's
 * transaction under the device's lock. Pages through the device's rows by
 * primary key and writes only rows whose bases change. Returns the number of
 * readings whose derived values (interval start, delta, reset, running
 * total) changed, what the row store's rebuild counts as changed rows; the
 * day rows written may be fewer.
 */
export async function rebuildReadingDays(runner: QueryRunner, orgId: string, deviceId: number, pageRows = REBUILD_PAGE_ROWS): Promise<number> {
  let readings = 0;
  let after = null as { channel: number; day: number } | null;
  let end: ChannelEnd = NO_READING;
  for (;;) {
    const rows: (DayRowColumns & { channel: number })[] = await runner.query(
      `SELECT r.channel, ${DAY_ROW_COLUMNS} FROM ingest.reading_days r
       WHERE r.org_id = $1 AND r.device_id = $2 ${after ? `AND (r.channel, r.day) > ($3::smallint, date '1970-01-01' + $4::int)` : ''}
       ORDER BY r.channel, r.day LIMIT ${Number(pageRows)}`,
      after ? [orgId, deviceId, after.channel, after.day] : [orgId, deviceId],
    );
    const changed: { channel: number; day: ReadingDay }[] = [];
    for (let i = 0; i < rows.length;) {
      const channel = rows[i].channel;
      // A new channel starts from nothing; the one continued from the previous page from where it ended.
      if (after?.channel !== channel) end = NO_READING;
      const days: ReadingDay[] = [];
      for (; i < rows.length && rows[i].channel === channel; i++) days.push(readingDayOf(rows[i]));
      const rebased = rebaseDays(days, end);
      for (const day of rebased.changed) changed.push({ channel, day });
      readings += rebased.readings;
      end = rebased.end;
      after = { channel, day: days[days.length - 1].day };
    }
    await writeBases(runner, orgId, deviceId, changed);
    if (rows.length < pageRows) return readings;
  }
}

async function writeBases(runner: QueryRunner, orgId: string, deviceId: number, changed: readonly { channel: number; day: ReadingDay }[]) {
  if (changed.length === 0) return;
  await runner.query(
    `UPDATE ingest.reading_days t SET prev_at = 'epoch'::timestamptz + u.p * interval '1 millisecond', prev_value = u.pv, cum_before = u.cb,
       has_reset = u.r
     FROM unnest($3::smallint[], $4::int[], $5::float8[], $6::float8[], $7::float8[], $8::bool[]) AS u(c, dy, p, pv, cb, r)
     WHERE t.org_id = $1 AND t.device_id = $2 AND t.channel = u.c AND t.day = date '1970-01-01' + u.dy`,
    [
      orgId,
      deviceId,
      changed.map((c) => c.channel),
      changed.map((c) => c.day.day),
      changed.map((c) => c.day.prevAt),
      changed.map((c) => c.day.prevValue),
      changed.map((c) => c.day.cumBefore),
      changed.map((c) => dayHasReset(c.day)),
    ],
  );
}
