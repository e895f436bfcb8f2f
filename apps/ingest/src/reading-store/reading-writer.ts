import type { QueryRunner } from 'typeorm';
import { PgArrayWriter } from '@meter/persistence';
import { recordAlerts } from '../alerts/record-alerts';
import type { AlarmUpdate, DeviceUpdate } from '../readings/updates';
import { channelKeyer, deviceLockKeys, latestPerKey, monthsOf, visitIntervals, type ReadingRow, type StoredReading } from './reading-batch';
import { appendedSpans, raisedAlarmSpans, recordReadingChanges } from '../change-log/reading-changes';

export interface BatchResult {
  /** readings inserted or corrected */
  changed: number;
  /** readings whose stored interval was recomputed against stored neighbours */
  relinked: number;
}

/**
 * Writes one batch into the read model inside the caller's transaction.
 * Devices of the batch are locked first (ascending lock keys), so two
 * ingest replicas never interleave on one device and never deadlock.
 */
export async function writeBatch(
  runner: QueryRunner,
  readings: readonly ReadingRow[],
  devices: readonly DeviceUpdate[],
  alarms: readonly AlarmUpdate[] = [],
  options: { alertRules?: boolean; nowMs?: number } = {},
): Promise<BatchResult> {
  await lockDevices(runner, deviceLockKeys([...devices, ...readings, ...alarms]));
  for (const update of [...devices].sort((a, b) => a.seq - b.seq)) await applyDeviceUpdate(runner, update);
  if (readings.length === 0) {
    if (alarms.length > 0) {
      await registerUnknownDevices(runner, alarmRows(alarms));
      await recordAlerts(runner, { appends: [], stored: new Map(), relinked: [], alarms, nowMs: options.nowMs });
      await recordReadingChanges(runner, raisedAlarmSpans(alarms));
    }
    return { changed: 0, relinked: 0 };
  }
  const rows = latestPerKey(readings);
  await registerUnknownDevices(runner, [...rows, ...alarmRows(alarms)]);
  // Under the device locks nothing else writes these channels, so readings after
  // the latest stored one cannot conflict: they take a plain INSERT with their
  // intervals computed here. Only late readings need ON CONFLICT and relinking.
  const latest = await latestStored(runner, rows);
  const appends: ReadingRow[] = [];
  const late: ReadingRow[] = [];
  const keyOf = channelKeyer();
  for (const row of rows) {
    const stored = latest.get(keyOf(row));
    (stored === undefined || row.readAt > stored.readAt ? appends : late).push(row);
  }
  await appendReadings(runner, appends, latest);
  const ranges = late.length ? await upsertReadings(runner, late) : [];
  const relinked = await relinkIntervals(runner, ranges);
  // What the batch exports must restate (docs/exports.md): the spans whose intervals changed.
  await recordReadingChanges(runner, [
    ...appendedSpans(appends, (row) => latest.get(keyOf(row))?.readAt),
    ...ranges.map(lateSpan),
    ...raisedAlarmSpans(alarms),
  ]);
  // Alert episodes from what was written, in the same transaction (docs/alerts-and-webhooks.md).
  const judged = options.alertRules === false ? { appends: [], relinked: [] } : { appends, relinked: ranges };
  await recordAlerts(runner, { ...judged, stored: latest, alarms, nowMs: options.nowMs });
  return { changed: appends.length + ranges.reduce((n, r) => n + r.count, 0), relinked };
}

/** An alarm of an unknown device registers it as a reading would: the alarm's channel and time. */
const alarmRows = (alarms: readonly AlarmUpdate[]): ReadingRow[] =>
  alarms.map((a) => ({ orgId: a.orgId, deviceId: a.deviceId, channel: a.alarm.channel, readAt: a.alarm.at, value: 0, seq: a.seq }));

const channelKey = (r: { orgId: string; deviceId: number; channel: number }) => `${r.orgId}\u0000${r.deviceId}\u0000${r.channel}`;

/** The latest stored reading of each channel in the batch: one backward index probe per channel. */
async function latestStored(runner: QueryRunner, rows: readonly ReadingRow[]): Promise<Map<string, StoredReading>> {
  const channels = new Map<string, ReadingRow>();
  const keyOf = channelKeyer();
  for (const row of rows) channels.set(keyOf(row), row);
  const list = [...channels.values()];
  const found: { org_id: string; device_id: number; channel: number; read_at: number; value: number; cum: number }[] = await runner.query(
    `SELECT c.o AS org_id, c.d::float8 AS device_id, c.c AS channel, (extract(epoch from l.read_at) * 1000)::float8 AS read_at, l.value, l.cum
     FROM unnest($1::text[], $2::bigint[], $3::smallint[]) AS c(o, d, c)
     CROSS JOIN LATERAL (SELECT read_at, value, cum FROM ingest.readings r WHERE r.org_id = c.o AND r.device_id = c.d AND r.channel = c.c
                         ORDER BY r.read_at DESC LIMIT 1) l`,
    [list.map((r) => r.orgId), list.map((r) => r.deviceId), list.map((r) => r.channel)],
  );
  return new Map(
    found.map((r) => [channelKey({ orgId: r.org_id, deviceId: r.device_id, channel: r.channel }), { readAt: r.read_at, value: r.value, cum: r.cum }]),
  );
}

/**
 * The readings with their intervals (`visitIntervals`) as ten binary array
 * parameters, without an object per reading: the values go to Postgres in its
 * own binary forms (doubles, µs since 2000), so neither side turns numbers
 * into text and back.
 */
function readingColumns(rows: readonly ReadingRow[], stored: ReadonlyMap<string, StoredReading> = new Map()): Buffer[] {
  const n = rows.length;
  const [org, device, channel, readAt, value, prev, delta, reset, cum, seq] = [
    PgArrayWriter.text(n),
    PgArrayWriter.int8(n),
    PgArrayWriter.int2(n),
    PgArrayWriter.timestamptz(n),
    PgArrayWriter.float8(n),
    PgArrayWriter.timestamptz(n),
    PgArrayWriter.float8(n),
    PgArrayWriter.bool(n),
    PgArrayWriter.float8(n),
    PgArrayWriter.int8(n),
  ];
  visitIntervals(rows, stored, (row, prevReadAt, d, r, c) => {
    org.text(row.orgId);
    device.int8(row.deviceId);
    channel.int2(row.channel);
    readAt.timestamptz(row.readAt);
    value.float8(row.value);
    if (prevReadAt === null) prev.null();
    else prev.timestamptz(prevReadAt);
    delta.float8(d);
    reset.bool(r);
    cum.float8(c);
    seq.int8(row.seq);
  });
  return [org, device, channel, readAt, value, prev, delta, reset, cum, seq].map((column) => column.finish());
}

const UNNEST_READINGS = `SELECT * FROM unnest($1::text[], $2::bigint[], $3::smallint[], $4::timestamptz[], $5::float8[], $6::timestamptz[],
                                   $7::float8[], $8::bool[], $9::float8[], $10::bigint[])`;

/** Readings after their channel's latest stored one: a plain `INSERT ... SELECT FROM unnest`, no conflict possible. */
async function appendReadings(runner: QueryRunner, rows: readonly ReadingRow[], latest: ReadonlyMap<string, StoredReading>) {
  if (rows.length === 0) return;
  await runner.query(
    `INSERT INTO ingest.readings (org_id, device_id, channel, read_at, value, prev_read_at, delta, reset, cum, stream_seq) ${UNNEST_READINGS}`,
    readingColumns(rows, latest),
  );
}

async function lockDevices(runner: QueryRunner, keys: readonly string[]) {
  // pg_advisory_xact_lock is volatile, so it runs after the sort: ascending hash order.
  await runner.query(`SELECT pg_advisory_xact_lock(h) FROM (SELECT DISTINCT hashtextextended(k, 0) AS h FROM unnest($1::text[]) AS k ORDER BY h) AS s`, [keys]);
}

async function applyDeviceUpdate(runner: QueryRunner, update: DeviceUpdate) {
  const d = update.device;
  const activatedAt = d.activated_at !== undefined ? new Date(d.activated_at).toISOString() : null;
  await runner.query(
    `INSERT INTO ingest.devices AS t (org_id, device_id, name, channels, activated_at, activated_explicit, serie, unit,
        decimal_places, time_zone, price_per_unit, currency_symbol, auto_registered, stream_seq,
        tariff, leak_threshold_per_hour, burst_threshold_per_hour, no_flow_days, max_silence_hours)
     VALUES ($1::text, $2::bigint, $3::text, coalesce($4::int, 1), coalesce($5::timestamptz, $6::timestamptz), $5::timestamptz IS NOT NULL,
        coalesce($7::text, 'water'), coalesce($8::text, 'm³'), coalesce($9::int, 3), coalesce($10::text, 'UTC'),
        coalesce($11::float8, 0), coalesce($12::text, '€'), false, $13::bigint,
        $15::jsonb, coalesce($16::float8, 0), $18::float8, coalesce($19::int, 30), coalesce($20::int, 48))
     ON CONFLICT (org_id, device_id) DO UPDATE SET
        name = EXCLUDED.name,
        channels = coalesce($4, t.channels),
        activated_at = CASE WHEN $5::timestamptz IS NOT NULL THEN $5::timestamptz ELSE t.activated_at END,
        activated_explicit = t.activated_explicit OR $5::timestamptz IS NOT NULL,
        serie = coalesce($7, t.serie),
        unit = coalesce($8, t.unit),
        decimal_places = coalesce($9, t.decimal_places),
        time_zone = coalesce($10, t.time_zone),
        price_per_unit = coalesce($11, t.price_per_unit),
        currency_symbol = coalesce($12, t.currency_symbol),
        -- tariff and burst threshold: given (a value, or null to remove it) or kept
        tariff = CASE WHEN $14::boolean THEN $15::jsonb ELSE t.tariff END,
        leak_threshold_per_hour = coalesce($16, t.leak_threshold_per_hour),
        burst_threshold_per_hour = CASE WHEN $17::boolean THEN $18::float8 ELSE t.burst_threshold_per_hour END,
        no_flow_days = coalesce($19, t.no_flow_days),
        max_silence_hours = coalesce($20, t.max_silence_hours),
        auto_registered = false,
        stream_seq = EXCLUDED.stream_seq,
        updated_at = now()
     WHERE t.stream_seq < EXCLUDED.stream_seq`,
    [
      update.orgId,
      update.deviceId,
      d.name,
      d.channels ?? null,
      activatedAt,
      new Date(update.receivedAt).toISOString(),
      d.serie ?? null,
      d.unit ?? null,
      d.decimal_places ?? null,
      d.time_zone ?? null,
      d.price_per_unit ?? null,
      d.currency_symbol ?? null,
      update.seq,
      d.tariff !== undefined,
      d.tariff ? JSON.stringify(d.tariff) : null,
      d.leak_threshold_per_hour ?? null,
      d.burst_threshold_per_hour !== undefined,
      d.burst_threshold_per_hour ?? null,
      d.no_flow_days ?? null,
      d.max_silence_hours ?? null,
    ],
  );
  // A registration without activated_at dates from the first reading, when readings came first.
  if (activatedAt === null) {
    await runner.query(
      `UPDATE ingest.devices t SET activated_at = f.first
       FROM (SELECT min(read_at) AS first FROM ingest.readings WHERE org_id = $1 AND device_id = $2) f
       WHERE t.org_id = $1 AND t.device_id = $2 AND NOT t.activated_explicit AND f.first < t.activated_at`,
      [update.orgId, update.deviceId],
    );
  }
}

/** A reading of an unknown device registers it; its earliest reading dates it. */
async function registerUnknownDevices(runner: QueryRunner, rows: readonly ReadingRow[]) {
  type Seen = { orgId: string; deviceId: number; first: number; channels: number };
  const perDevice = new Map<string, Seen>();
  let seen: Seen | undefined;
  for (const row of rows) {
    if (!seen || row.deviceId !== seen.deviceId || row.orgId !== seen.orgId) {
      const key = `${row.orgId}:${row.deviceId}`;
      seen = perDevice.get(key);
      if (!seen) perDevice.set(key, (seen = { orgId: row.orgId, deviceId: row.deviceId, first: row.readAt, channels: row.channel }));
    }
    seen.first = Math.min(seen.first, row.readAt);
    seen.channels = Math.max(seen.channels, row.channel);
  }
  const devices = [...perDevice.values()];
  await runner.query(
    `INSERT INTO ingest.devices AS t (org_id, device_id, name, channels, activated_at)
     SELECT o, d, 'Device ' || d, c, f FROM unnest($1::text[], $2::bigint[], $3::int[], $4::timestamptz[]) AS u(o, d, c, f)
     ON CONFLICT (org_id, device_id) DO UPDATE SET
        channels = greatest(t.channels, EXCLUDED.channels),
        activated_at = CASE WHEN t.activated_explicit THEN t.activated_at ELSE least(t.activated_at, EXCLUDED.activated_at) END,
        updated_at = now()
     WHERE EXCLUDED.channels > t.channels OR (NOT t.activated_explicit AND EXCLUDED.activated_at < t.activated_at)`,
    [devices.map((d) => d.orgId), devices.map((d) => d.deviceId), devices.map((d) => d.channels), devices.map((d) => new Date(d.first).toISOString())],
  );
}

interface ChangedRange {
  orgId: string;
  deviceId: number;
  channel: number;
  lo: string;
  hi: string;
  count: number;
}

/** A late reading's or a correction's span, widened to its stored neighbours when recorded. */
const lateSpan = (r: ChangedRange) => ({
  orgId: r.orgId,
  deviceId: r.deviceId,
  channel: r.channel,
  start: Date.parse(r.lo),
  end: Date.parse(r.hi),
  widen: true,
});

/**
 * Inserts new readings and applies corrections (a different value from a
 * later stream sequence). Repeats and stale redeliveries change nothing.
 * Returns, per channel, the span of readings that actually changed.
 */
async function upsertReadings(runner: QueryRunner, rows: readonly ReadingRow[]): Promise<ChangedRange[]> {
  const result: { org_id: string; device_id: string; channel: number; lo: Date; hi: Date; n: string }[] = await runner.query(
    `WITH changed AS (
       INSERT INTO ingest.readings AS t (org_id, device_id, channel, read_at, value, prev_read_at, delta, reset, cum, stream_seq)
       ${UNNEST_READINGS}
       ON CONFLICT (org_id, device_id, channel, read_at) DO UPDATE SET value = EXCLUDED.value, stream_seq = EXCLUDED.stream_seq
       WHERE t.stream_seq < EXCLUDED.stream_seq AND t.value <> EXCLUDED.value
       RETURNING org_id, device_id, channel, read_at)
     SELECT org_id, device_id, channel, min(read_at) AS lo, max(read_at) AS hi, count(*) AS n FROM changed GROUP BY 1, 2, 3`,
    readingColumns(rows),
  );
  return result.map((r) => ({
    orgId: r.org_id,
    deviceId: Number(r.device_id),
    channel: r.channel,
    lo: r.lo.toISOString(),
    hi: r.hi.toISOString(),
    count: Number(r.n),
  }));
}

/**
 * Recomputes the stored interval of every reading from the changed span's
 * predecessor to its successor: a late reading splits its neighbour's
 * interval, a correction changes its own and the next one. Rows whose
 * interval is already right are not rewritten.
 */
async function relinkIntervals(runner: QueryRunner, ranges: readonly ChangedRange[]): Promise<number> {
  if (ranges.length === 0) return 0;
  const result: [unknown[], number] = await runner.query(
    `WITH ranges AS (
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::smallint[], $4::timestamptz[], $5::timestamptz[]) AS r(org_id, device_id, channel, lo, hi)
     ), bounds AS (
       SELECT r.org_id, r.device_id, r.channel,
         (SELECT p.read_at FROM ingest.readings p WHERE p.org_id = r.org_id AND p.device_id = r.device_id AND p.channel = r.channel
            AND p.read_at < r.lo ORDER BY p.read_at DESC LIMIT 1) AS pred,
         r.lo,
         coalesce((SELECT n.read_at FROM ingest.readings n WHERE n.org_id = r.org_id AND n.device_id = r.device_id AND n.channel = r.channel
            AND n.read_at > r.hi ORDER BY n.read_at LIMIT 1), r.hi) AS hi
       FROM ranges r
     ), windowed AS (
       SELECT x.org_id, x.device_id, x.channel, x.read_at, x.value, x.prev_read_at AS old_prev, x.delta AS old_delta, x.reset AS old_reset,
         b.pred, lag(x.read_at) OVER w AS prev_read_at, lag(x.value) OVER w AS prev_value
       FROM bounds b JOIN ingest.readings x ON x.org_id = b.org_id AND x.device_id = b.device_id AND x.channel = b.channel
         AND x.read_at >= coalesce(b.pred, b.lo) AND x.read_at <= b.hi
       WINDOW w AS (PARTITION BY x.org_id, x.device_id, x.channel ORDER BY x.read_at)
     ), computed AS (
       SELECT org_id, device_id, channel, read_at, prev_read_at,
         CASE WHEN prev_read_at IS NULL OR value < prev_value THEN 0 ELSE value - prev_value END AS delta,
         coalesce(value < prev_value, false) AS reset
       FROM windowed
       -- the predecessor itself keeps its own interval; it is only the left edge here
       WHERE pred IS NULL OR read_at > pred
     )
     UPDATE ingest.readings t SET prev_read_at = c.prev_read_at, delta = c.delta, reset = c.reset
     FROM computed c
     WHERE t.org_id = c.org_id AND t.device_id = c.device_id AND t.channel = c.channel AND t.read_at = c.read_at
       AND (t.prev_read_at IS DISTINCT FROM c.prev_read_at OR t.delta <> c.delta OR t.reset <> c.reset)`,
    [ranges.map((r) => r.orgId), ranges.map((r) => r.deviceId), ranges.map((r) => r.channel), ranges.map((r) => r.lo), ranges.map((r) => r.hi)],
  );
  await recomputeCumulative(runner, ranges);
  return Array.isArray(result) && typeof result[1] === 'number' ? result[1] : 0;
}

/**
 * After a late reading or a correction, the running consumption of every
 * later reading of the channel moves: recompute it from the changed span's
 * predecessor to the channel's end (rare; appends never come here).
 */
async function recomputeCumulative(runner: QueryRunner, ranges: readonly ChangedRange[]) {
  await runner.query(
    `WITH ranges AS (
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::smallint[], $4::timestamptz[]) AS r(org_id, device_id, channel, lo)
     ), bases AS MATERIALIZED (
       -- Materialized: one backward probe per range. Inlined, the planner evaluated the probe once per later reading.
       SELECT r.*, coalesce((SELECT p.cum FROM ingest.readings p WHERE p.org_id = r.org_id AND p.device_id = r.device_id AND p.channel = r.channel
                               AND p.read_at < r.lo ORDER BY p.read_at DESC LIMIT 1), 0) AS base
       FROM ranges r
     ), computed AS (
       SELECT x.org_id, x.device_id, x.channel, x.read_at,
         b.base + sum(x.delta) OVER (PARTITION BY x.org_id, x.device_id, x.channel ORDER BY x.read_at) AS cum
       FROM bases b JOIN ingest.readings x ON x.org_id = b.org_id AND x.device_id = b.device_id AND x.channel = b.channel AND x.read_at >= b.lo
     )
     UPDATE ingest.readings t SET cum = c.cum FROM computed c
     WHERE t.org_id = c.org_id AND t.device_id = c.device_id AND t.channel = c.channel AND t.read_at = c.read_at AND t.cum <> c.cum`,
    [ranges.map((r) => r.orgId), ranges.map((r) => r.deviceId), ranges.map((r) => r.channel), ranges.map((r) => r.lo)],
  );
}

/** Creates the month partitions the readings need; outside the batch transaction (it is DDL). */
export async function ensurePartitions(query: (sql: string, params: unknown[]) => Promise<unknown>, readAts: Iterable<number>, known: Set<number>) {
  for (const month of monthsOf(readAts)) {
    if (known.has(month)) continue;
    await query('SELECT ingest.ensure_readings_partition($1::timestamptz)', [new Date(month).toISOString()]);
    known.add(month);
  }
}
