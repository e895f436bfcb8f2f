import type { QueryRunner } from 'typeorm';
import type { ReadingRow } from '../reading-store/reading-batch';
import { firstReadingAt } from '../reading-store/reading-history';
import type { DeviceUpdate } from '../readings/updates';

/** How ingest keeps `ingest.devices`: registrations and settings from device messages, and devices that register themselves by reading. */

/** Applies a device message: a field left out keeps its stored value; a message older than the stored one changes nothing. */
export async function applyDeviceUpdate(runner: QueryRunner, update: DeviceUpdate) {
  const d = update.device;
  await takeRadioIds(runner, update);
  const activatedAt = d.activated_at !== undefined ? new Date(d.activated_at).toISOString() : null;
  await runner.query(
    `INSERT INTO ingest.devices AS t (org_id, device_id, name, channels, activated_at, activated_explicit, serie, unit,
        decimal_places, time_zone, price_per_unit, currency_symbol, auto_registered, stream_seq,
        tariff, leak_threshold_per_hour, burst_threshold_per_hour, no_flow_days, max_silence_hours, dev_eui, wmbus_id)
     VALUES ($1::text, $2::bigint, $3::text, coalesce($4::int, 1), coalesce($5::timestamptz, $6::timestamptz), $5::timestamptz IS NOT NULL,
        coalesce($7::text, 'water'), coalesce($8::text, 'm³'), coalesce($9::int, 3), coalesce($10::text, 'UTC'),
        coalesce($11::float8, 0), coalesce($12::text, '€'), false, $13::bigint,
        $15::jsonb, coalesce($16::float8, 0), $18::float8, coalesce($19::int, 30), coalesce($20::int, 48), $22::text, $24::text)
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
        -- radio ids: given (a value, or null to remove it) or kept
        dev_eui = CASE WHEN $21::boolean THEN $22::text ELSE t.dev_eui END,
        wmbus_id = CASE WHEN $23::boolean THEN $24::text ELSE t.wmbus_id END,
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
      d.external_ids?.dev_eui !== undefined,
      d.external_ids?.dev_eui ?? null,
      d.external_ids?.wmbus_id !== undefined,
      d.external_ids?.wmbus_id ?? null,
    ],
  );
  // A registration without activated_at dates from the first reading, when readings came first.
  if (activatedAt === null) {
    const first = await firstReadingAt(runner, update.orgId, update.deviceId);
    if (first === null) return;
    await runner.query(`UPDATE ingest.devices SET activated_at = $3 WHERE org_id = $1 AND device_id = $2 AND NOT activated_explicit AND $3 < activated_at`, [
      update.orgId,
      update.deviceId,
      new Date(first).toISOString(),
    ]);
  }
}

/**
 * A radio id names one device of an organization: a newer device message that
 * gives it to another device takes it from the one that had it (the meter was
 * moved or replaced), so the unique index never refuses a batch.
 */
async function takeRadioIds(runner: QueryRunner, update: DeviceUpdate) {
  const ids = update.device.external_ids;
  if (!ids?.dev_eui && !ids?.wmbus_id) return;
  await runner.query(
    `UPDATE ingest.devices SET dev_eui = CASE WHEN dev_eui = $3 THEN NULL ELSE dev_eui END,
        wmbus_id = CASE WHEN wmbus_id = $4 THEN NULL ELSE wmbus_id END, updated_at = now()
      WHERE org_id = $1 AND device_id <> $2 AND (dev_eui = $3 OR wmbus_id = $4)`,
    [update.orgId, update.deviceId, ids.dev_eui ?? null, ids.wmbus_id ?? null],
  );
}

/** A reading of an unknown device registers it; its earliest reading dates it. */
export async function registerUnknownDevices(runner: QueryRunner, rows: readonly ReadingRow[]) {
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
