import type { QueryRunner } from 'typeorm';
import { channelKeyer, type ReadingRow } from './reading-batch';
import { dayHasReset, dayOf, packDay, unpackDay, type ReadingDay } from '@meter/read-model';
import { mergeChannel, type LoadedChannel } from './day-merge';
import type { ChangedRange, WrittenReadings } from './reading-store';

/**
 * The compact reading store's writer: a batch's readings into
 * `ingest.reading_days`, one row per channel and UTC day (docs/capacity.md,
 * "A compact reading store"). One query loads, per channel, the day rows the
 * batch touches and their neighbours; `mergeChannel` decides in memory; one
 * upsert writes the changed rows and one update moves the running totals of
 * later days when a late reading or a correction changed them. Runs in the
 * caller's transaction, under its devices' locks.
 */
export async function writeReadingDays(runner: QueryRunner, rows: readonly ReadingRow[]): Promise<WrittenReadings> {
  const channels = byChannel(rows);
  const loaded = await loadChannels(runner, channels);
  const writes: { channel: ChannelRows; day: ReadingDay }[] = [];
  const shifts: { channel: ChannelRows; after: number; shift: number }[] = [];
  const result: WrittenReadings = { appends: [], latest: new Map(), late: [], relinked: 0 };
  channels.forEach((channel, i) => {
    const merged = mergeChannel(loaded[i], channel.rows);
    for (const day of merged.writes) writes.push({ channel, day });
    if (merged.shift !== 0) shifts.push({ channel, after: merged.shiftAfter, shift: merged.shift });
    result.appends.push(...merged.appends);
    if (merged.latest) result.latest.set(channel.key, merged.latest);
    if (merged.late) result.late.push(lateRange(channel, merged.late));
    result.relinked += merged.relinked;
  });
  await upsertDays(runner, writes);
  await shiftTotals(runner, shifts);
  return result;
}

interface ChannelRows {
  key: string;
  orgId: string;
  deviceId: number;
  channel: number;
  /** ascending by instant */
  rows: ReadingRow[];
}

function byChannel(rows: readonly ReadingRow[]): ChannelRows[] {
  const channels = new Map<string, ChannelRows>();
  const keyOf = channelKeyer();
  for (const row of rows) {
    const key = keyOf(row);
    let channel = channels.get(key);
    if (!channel) channels.set(key, (channel = { key, orgId: row.orgId, deviceId: row.deviceId, channel: row.channel, rows: [] }));
    channel.rows.push(row);
  }
  for (const channel of channels.values()) channel.rows.sort((a, b) => a.readAt - b.readAt);
  return [...channels.values()];
}

type DayRow = {
  i: number;
  kind: 'before' | 'span' | 'next' | 'latest';
  day: number;
  prev_at: number | null;
  prev_value: number;
  cum_before: number;
  readings: Buffer;
};

const DAY_COLUMNS = `(r.day - date '1970-01-01') AS day, (extract(epoch from r.prev_at) * 1000)::float8 AS prev_at, r.prev_value, r.cum_before, r.readings`;
const SAME_CHANNEL = 'r.org_id = k.o AND r.device_id = k.d AND r.channel = k.c';

/** Per channel: the day row before the batch's days, those days' rows, the row after them and the channel's latest row (index probes). */
async function loadChannels(runner: QueryRunner, channels: readonly ChannelRows[]): Promise<LoadedChannel[]> {
  const found: DayRow[] = await runner.query(
    `SELECT k.i::int AS i, x.* FROM unnest($1::text[], $2::bigint[], $3::smallint[], $4::int[], $5::int[]) WITH ORDINALITY AS k(o, d, c, lo, hi, i)
     CROSS JOIN LATERAL (
       (SELECT 'before' AS kind, ${DAY_COLUMNS} FROM ingest.reading_days r
        WHERE ${SAME_CHANNEL} AND r.day < date '1970-01-01' + k.lo ORDER BY r.day DESC LIMIT 1)
       UNION ALL
       (SELECT 'span', ${DAY_COLUMNS} FROM ingest.reading_days r
        WHERE ${SAME_CHANNEL} AND r.day >= date '1970-01-01' + k.lo AND r.day <= date '1970-01-01' + k.hi)
       UNION ALL
       (SELECT 'next', ${DAY_COLUMNS} FROM ingest.reading_days r
        WHERE ${SAME_CHANNEL} AND r.day > date '1970-01-01' + k.hi ORDER BY r.day LIMIT 1)
       UNION ALL
       (SELECT 'latest', ${DAY_COLUMNS} FROM ingest.reading_days r WHERE ${SAME_CHANNEL} ORDER BY r.day DESC LIMIT 1)
     ) x`,
    [
      channels.map((c) => c.orgId),
      channels.map((c) => c.deviceId),
      channels.map((c) => c.channel),
      channels.map((c) => dayOf(c.rows[0].readAt)),
      channels.map((c) => dayOf(c.rows[c.rows.length - 1].readAt)),
    ],
  );
  const loaded: LoadedChannel[] = channels.map(() => ({ before: null, span: [], next: null, latest: null }));
  for (const row of found) {
    const target = loaded[row.i - 1];
    const day: ReadingDay = { day: row.day, readings: unpackDay(row.readings), prevAt: row.prev_at, prevValue: row.prev_value, cumBefore: row.cum_before };
    if (row.kind === 'span') target.span.push(day);
    else target[row.kind] = day;
  }
  for (const channel of loaded) channel.span.sort((a, b) => a.day - b.day);
  return loaded;
}

async function upsertDays(runner: QueryRunner, writes: readonly { channel: ChannelRows; day: ReadingDay }[]) {
  if (writes.length === 0) return;
  await runner.query(
    `INSERT INTO ingest.reading_days AS t (org_id, device_id, channel, day, prev_at, prev_value, cum_before, reading_count, readings, has_reset)
     SELECT o, d, c, date '1970-01-01' + dy, 'epoch'::timestamptz + p * interval '1 millisecond', pv, cb, n, b, r
     FROM unnest($1::text[], $2::bigint[], $3::smallint[], $4::int[], $5::float8[], $6::float8[], $7::float8[], $8::int[], $9::bytea[], $10::bool[])
       AS u(o, d, c, dy, p, pv, cb, n, b, r)
     ON CONFLICT (org_id, device_id, channel, day) DO UPDATE SET prev_at = EXCLUDED.prev_at, prev_value = EXCLUDED.prev_value,
       cum_before = EXCLUDED.cum_before, reading_count = EXCLUDED.reading_count, readings = EXCLUDED.readings, has_reset = EXCLUDED.has_reset`,
    [
      writes.map((w) => w.channel.orgId),
      writes.map((w) => w.channel.deviceId),
      writes.map((w) => w.channel.channel),
      writes.map((w) => w.day.day),
      writes.map((w) => w.day.prevAt),
      writes.map((w) => w.day.prevValue),
      writes.map((w) => w.day.cumBefore),
      writes.map((w) => w.day.readings.length),
      writes.map((w) => packDay(w.day.readings)),
      writes.map((w) => dayHasReset(w.day)),
    ],
  );
}

/** A late reading or a correction moved the channel's running total: every later day row starts that much further. */
async function shiftTotals(runner: QueryRunner, shifts: readonly { channel: ChannelRows; after: number; shift: number }[]) {
  if (shifts.length === 0) return;
  await runner.query(
    `UPDATE ingest.reading_days r SET cum_before = r.cum_before + s.shift
     FROM unnest($1::text[], $2::bigint[], $3::smallint[], $4::int[], $5::float8[]) AS s(o, d, c, after, shift)
     WHERE r.org_id = s.o AND r.device_id = s.d AND r.channel = s.c AND r.day > date '1970-01-01' + s.after`,
    [
      shifts.map((s) => s.channel.orgId),
      shifts.map((s) => s.channel.deviceId),
      shifts.map((s) => s.channel.channel),
      shifts.map((s) => s.after),
      shifts.map((s) => s.shift),
    ],
  );
}

const lateRange = (channel: ChannelRows, late: { lo: number; hi: number; count: number }): ChangedRange => ({
  orgId: channel.orgId,
  deviceId: channel.deviceId,
  channel: channel.channel,
  lo: new Date(late.lo).toISOString(),
  hi: new Date(late.hi).toISOString(),
  count: late.count,
});
