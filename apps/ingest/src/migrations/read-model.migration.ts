import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The consumption read model (docs/read-model.md): devices, and readings
 * partitioned by month of `read_at`, each row carrying the interval since
 * its predecessor on the same channel.
 */
export class ReadModel1763800000000 implements MigrationInterface {
  name = 'ReadModel1763800000000';

  async up(runner: QueryRunner) {
    await runner.query(`
      CREATE TABLE ingest.devices (
        org_id text COLLATE "C" NOT NULL,
        device_id bigint NOT NULL CHECK (device_id > 0),
        name text NOT NULL,
        channels integer NOT NULL DEFAULT 1 CHECK (channels >= 1),
        activated_at timestamptz NOT NULL,
        activated_explicit boolean NOT NULL DEFAULT false,
        serie text NOT NULL DEFAULT 'water',
        unit text NOT NULL DEFAULT 'm³',
        decimal_places integer NOT NULL DEFAULT 3,
        time_zone text NOT NULL DEFAULT 'UTC',
        price_per_unit double precision NOT NULL DEFAULT 0,
        currency_symbol text NOT NULL DEFAULT '€',
        auto_registered boolean NOT NULL DEFAULT true,
        stream_seq bigint NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, device_id)
      )`);
    await runner.query(`
      CREATE TABLE ingest.readings (
        org_id text COLLATE "C" NOT NULL,
        device_id bigint NOT NULL,
        channel smallint NOT NULL,
        read_at timestamptz NOT NULL,
        value double precision NOT NULL,
        prev_read_at timestamptz,
        delta double precision NOT NULL DEFAULT 0,
        reset boolean NOT NULL DEFAULT false,
        -- consumption of the channel from its first reading up to this one: any window is two lookups
        cum double precision NOT NULL DEFAULT 0,
        stream_seq bigint NOT NULL,
        PRIMARY KEY (org_id, device_id, channel, read_at)
      ) PARTITION BY RANGE (read_at)`);
    // Creating a partition is DDL; callers serialize on one advisory lock so
    // two ingest replicas asking for the same month never collide.
    await runner.query(`
      CREATE FUNCTION ingest.ensure_readings_partition(at timestamptz) RETURNS text
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
        -- another session created it between our check and our CREATE
        RETURN part;
      END $$`);
  }

  async down(runner: QueryRunner) {
    await runner.query('DROP FUNCTION IF EXISTS ingest.ensure_readings_partition(timestamptz)');
    await runner.query('DROP TABLE IF EXISTS ingest.readings');
    await runner.query('DROP TABLE IF EXISTS ingest.devices');
  }
}
