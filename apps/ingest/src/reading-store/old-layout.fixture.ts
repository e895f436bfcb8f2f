import type { DataSource } from 'typeorm';
import { SERVICE_STORES } from '@meter/cli';
import { createDataSource, runMigrations, type ServiceStore } from '@meter/persistence';
import { migrateIngestBefore } from '@meter/testing/earlier-layout';
import { ingestStore } from '../migrations';

/**
 * A database of the layout before the switch (docs/read-model.md, "The
 * compact store and its backfill"), made as a deployed one was: readings
 * stored in the row-per-reading table `ingest.readings` before the compact
 * store existed, then the migrations that added the compact store and its
 * backfill, up to the switch (`ReadingRowsRetired`), not including it.
 */
export async function migrateToOldLayout(databaseUrl: string, storeReadings: (db: Pick<DataSource, 'query'>) => Promise<void>): Promise<void> {
  await migrateIngestBefore(databaseUrl, 'ReadingDays1765100000000');
  const dataSource = await createDataSource({ schema: 'ingest', url: databaseUrl, poolSize: 1, applicationName: 'old-layout-readings' }).initialize();
  try {
    await storeReadings(dataSource);
  } finally {
    await dataSource.destroy();
  }
  await migrateIngestBefore(databaseUrl, 'ReadingRowsRetired1765300000000');
  // The other schemas as they are: the services that start on this database need them.
  for (const store of Object.values(SERVICE_STORES)) if (store !== ingestStore) await migrate(databaseUrl, store);
}

/** Applies ingest's remaining migrations (the switch): their names, or the first failure. */
export const migrateIngest = (databaseUrl: string): Promise<string[]> => migrate(databaseUrl, ingestStore);

async function migrate(databaseUrl: string, store: ServiceStore): Promise<string[]> {
  const dataSource = await createDataSource({ ...store, url: databaseUrl, poolSize: 2, applicationName: 'migrate-old-layout' }).initialize();
  try {
    return await runMigrations(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

/** A reading as the old layout stores it, before its derived columns. */
export interface OldReading {
  org: string;
  device: number;
  channel: number;
  /** µs since the epoch */
  us: number;
  value: number;
  seq: number;
}

/**
 * Inserts readings into the table `ingest.readings` (a reading at a stored
 * instant replaces it if later and of another value, as the row writer's
 * correction did), making the months' partitions,
 * then derives the touched channels' columns as the old rebuild did: the
 * interval from the reading before, no delta on the first reading or a
 * decrease (a register reset), the running total of the deltas.
 */
export async function insertOldReadings(db: Pick<DataSource, 'query'>, readings: readonly OldReading[]): Promise<void> {
  if (readings.length === 0) return;
  const months = new Set(readings.map((r) => new Date(Math.floor(r.us / 1000)).toISOString().slice(0, 7)));
  for (const month of months) await db.query('SELECT ingest.ensure_readings_partition($1::timestamptz)', [`${month}-01T00:00:00Z`]);
  const columns = [readings.map((r) => r.org), readings.map((r) => r.device), readings.map((r) => r.channel), readings.map((r) => r.us)];
  await db.query(
    `INSERT INTO ingest.readings AS t (org_id, device_id, channel, read_at, value, prev_read_at, delta, reset, cum, stream_seq)
     SELECT o, d, c, 'epoch'::timestamptz + us * interval '1 microsecond', v, NULL, 0, false, 0, s
     FROM unnest($1::text[], $2::bigint[], $3::smallint[], $4::bigint[], $5::float8[], $6::bigint[]) AS u(o, d, c, us, v, s)
     ON CONFLICT (org_id, device_id, channel, read_at) DO UPDATE SET value = EXCLUDED.value, stream_seq = EXCLUDED.stream_seq
     WHERE t.stream_seq < EXCLUDED.stream_seq AND t.value <> EXCLUDED.value`,
    [...columns, readings.map((r) => r.value), readings.map((r) => r.seq)],
  );
  await db.query(
    `WITH touched AS (SELECT DISTINCT o, d, c FROM unnest($1::text[], $2::bigint[], $3::smallint[]) AS u(o, d, c)),
     linked AS (
       SELECT r.org_id, r.device_id, r.channel, r.read_at, r.value, lag(r.read_at) OVER w AS prev, lag(r.value) OVER w AS prev_value
       FROM ingest.readings r JOIN touched t ON r.org_id = t.o AND r.device_id = t.d AND r.channel = t.c
       WINDOW w AS (PARTITION BY r.org_id, r.device_id, r.channel ORDER BY r.read_at)
     ), intervals AS (
       SELECT org_id, device_id, channel, read_at, prev,
         CASE WHEN prev IS NULL OR value < prev_value THEN 0 ELSE value - prev_value END AS delta,
         coalesce(value < prev_value, false) AS reset
       FROM linked
     ), totals AS (
       SELECT *, sum(delta) OVER (PARTITION BY org_id, device_id, channel ORDER BY read_at) AS cum FROM intervals
     )
     UPDATE ingest.readings r SET prev_read_at = s.prev, delta = s.delta, reset = s.reset, cum = s.cum
     FROM totals s
     WHERE r.org_id = s.org_id AND r.device_id = s.device_id AND r.channel = s.channel AND r.read_at = s.read_at`,
    columns.slice(0, 3),
  );
}
