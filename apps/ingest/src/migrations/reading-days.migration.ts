import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The compact reading store (docs/capacity.md, "A compact reading store"):
 * one row per organization, device, channel and UTC day, the day's readings
 * packed in `readings` (libs/read-model/src/readings/day-pack.ts). What the
 * row-per-reading table derives per reading comes from the packed values and
 * the three fields about the channel's reading before the day.
 *
 * Partitioned by month of `day` like `ingest.readings`, so months retire by
 * dropping a partition; `ensure_readings_partition` now makes both months.
 */
export class ReadingDays1765100000000 implements MigrationInterface {
  name = 'ReadingDays1765100000000';

  async up(runner: QueryRunner) {
    // Fixed-width columns first, so the row needs no alignment padding between them.
    await runner.query(`
      CREATE TABLE ingest.reading_days (
        device_id bigint NOT NULL,
        -- the channel's last reading before this day, its value and running total (null, 0 and 0: none)
        prev_at timestamptz,
        prev_value double precision NOT NULL DEFAULT 0,
        cum_before double precision NOT NULL DEFAULT 0,
        day date NOT NULL,
        reading_count integer NOT NULL CHECK (reading_count > 0),
        channel smallint NOT NULL,
        org_id text COLLATE "C" NOT NULL,
        readings bytea NOT NULL,
        PRIMARY KEY (org_id, device_id, channel, day)
      ) PARTITION BY RANGE (day)`);
    await runner.query(`
      CREATE OR REPLACE FUNCTION ingest.ensure_readings_partition(at timestamptz) RETURNS text
      LANGUAGE plpgsql AS $$
      DECLARE
        month_start timestamptz := date_trunc('month', at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
        month_day date := date_trunc('month', at AT TIME ZONE 'UTC')::date;
        part text := 'readings_' || to_char(at AT TIME ZONE 'UTC', 'YYYY_MM');
        days text := 'reading_days_' || to_char(at AT TIME ZONE 'UTC', 'YYYY_MM');
      BEGIN
        IF to_regclass('ingest.' || part) IS NOT NULL AND to_regclass('ingest.' || days) IS NOT NULL THEN
          RETURN part;
        END IF;
        PERFORM pg_advisory_xact_lock(74210002);
        IF to_regclass('ingest.' || part) IS NULL THEN
          EXECUTE format('CREATE TABLE ingest.%I PARTITION OF ingest.readings FOR VALUES FROM (%L) TO (%L)',
            part, month_start, month_start + interval '1 month');
        END IF;
        IF to_regclass('ingest.' || days) IS NULL THEN
          EXECUTE format('CREATE TABLE ingest.%I PARTITION OF ingest.reading_days FOR VALUES FROM (%L) TO (%L)',
            days, month_day, (month_day + interval '1 month')::date);
        END IF;
        RETURN part;
      EXCEPTION WHEN duplicate_table OR unique_violation THEN
        -- another session created it between our check and our CREATE
        RETURN part;
      END $$`);
    // Months that already hold readings get their day partitions now.
    await runner.query(`
      SELECT ingest.ensure_readings_partition(to_date(substr(c.relname, 10), 'YYYY_MM')::timestamp AT TIME ZONE 'UTC')
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'ingest.readings'::regclass AND c.relname ~ '^readings_[0-9]{4}_[0-9]{2}$'`);
  }

  async down(runner: QueryRunner) {
    await runner.query('DROP TABLE IF EXISTS ingest.reading_days');
    await runner.query(`
      CREATE OR REPLACE FUNCTION ingest.ensure_readings_partition(at timestamptz) RETURNS text
      LANGUAGE plpgsql AS $$
      DECLARE
        month_start timestamptz := date_trunc('month', at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
        part text := 'readings_' || to_char(at AT TIME ZONE 'UTC', 'YYYY_MM');
      BEGIN
        IF to_regclass('ingest.' || part) IS NOT NULL THEN
          RETURN part;
        END IF;
        PERFORM pg_advisory_xact_lock(74210002);
        IF to_regclass('ingest.' || part) IS NULL THEN
          EXECUTE format('CREATE TABLE ingest.%I PARTITION OF ingest.readings FOR VALUES FROM (%L) TO (%L)',
            part, month_start, month_start + interval '1 month');
        END IF;
        RETURN part;
      EXCEPTION WHEN duplicate_table OR unique_violation THEN
        RETURN part;
      END $$`);
  }
}
