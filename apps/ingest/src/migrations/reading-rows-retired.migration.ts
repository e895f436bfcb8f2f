import type { MigrationInterface, QueryRunner } from 'typeorm';
import { backfillReadingDays } from '../reading-store/reading-days-backfill';
import { READING_DAYS_BACKFILL_QUEUE } from './reading-days-backfill.migration';
import { INGEST_JOBS_SCHEMA } from './ingest-jobs.migration';
import { READINGS_VIEW_SQL } from './reading-rows-view.sql';

/** Channels per backfill transaction while finishing what the background backfill left. */
const BATCH_CHANNELS = 500;

/**
 * Retires the row-per-reading table: the compact store (`ingest.reading_days`)
 * becomes the only one, and `ingest.readings` a view of it (docs/read-model.md,
 * "The compact store and its backfill").
 *
 * On a database whose background backfill has not finished (one that skipped
 * the release writing both stores), this finishes it first, batch by batch.
 * Before dropping anything it checks, month by month, that the compact store
 * holds as many readings as the table; it refuses otherwise and changes
 * nothing. Not reversible: the readings are in the compact store only.
 */
export class ReadingRowsRetired1765300000000 implements MigrationInterface {
  name = 'ReadingRowsRetired1765300000000';
  // The backfill commits batch by batch; the switch itself is one transaction.
  transaction = false as const;

  async up(runner: QueryRunner) {
    const [table]: { kind: string }[] = await runner.query(`SELECT relkind AS kind FROM pg_class WHERE oid = to_regclass('ingest.readings')`);
    if (table?.kind !== 'p') return;
    // Batch by batch, each its own transaction, as the background job of the release before did.
    await backfillReadingDays(runner, { batchChannels: BATCH_CHANNELS });
    // One snapshot of both stores: each batch wrote both in one transaction, so they agree in any snapshot.
    await runner.startTransaction('REPEATABLE READ');
    try {
      const differing: { month: string; rows: string; packed: string | null }[] = await runner.query(`
        SELECT to_char(m.month, 'YYYY-MM') AS month, m.n AS rows, d.n AS packed
        FROM (SELECT date_trunc('month', read_at AT TIME ZONE 'UTC')::date AS month, count(*) AS n FROM ingest.readings GROUP BY 1) m
        LEFT JOIN (SELECT date_trunc('month', day)::date AS month, sum(reading_count) AS n FROM ingest.reading_days GROUP BY 1) d USING (month)
        WHERE d.n IS DISTINCT FROM m.n ORDER BY 1`);
      if (differing.length > 0) {
        const months = differing.map((m) => `${m.month}: ${m.rows} readings, ${m.packed ?? 0} packed`).join('; ');
        throw new Error(`ingest.reading_days does not hold every reading of ingest.readings (${months}); the table is kept`);
      }
      await runner.commitTransaction();
    } catch (error) {
      await runner.rollbackTransaction();
      throw error;
    }
    await runner.startTransaction();
    try {
      await runner.query('DROP TABLE ingest.readings');
      await runner.query(`
        CREATE OR REPLACE FUNCTION ingest.ensure_readings_partition(at timestamptz) RETURNS text
        LANGUAGE plpgsql AS $$
        DECLARE
          month_day date := date_trunc('month', at AT TIME ZONE 'UTC')::date;
          days text := 'reading_days_' || to_char(at AT TIME ZONE 'UTC', 'YYYY_MM');
        BEGIN
          IF to_regclass('ingest.' || days) IS NOT NULL THEN
            RETURN days;
          END IF;
          PERFORM pg_advisory_xact_lock(74210002);
          IF to_regclass('ingest.' || days) IS NULL THEN
            EXECUTE format('CREATE TABLE ingest.%I PARTITION OF ingest.reading_days FOR VALUES FROM (%L) TO (%L)',
              days, month_day, (month_day + interval '1 month')::date);
          END IF;
          RETURN days;
        EXCEPTION WHEN duplicate_table OR unique_violation THEN
          -- another session created it between our check and our CREATE
          RETURN days;
        END $$`);
      for (const statement of READINGS_VIEW_SQL) await runner.query(statement);
      // The release before ran the backfill as a periodic job; nothing is left for it.
      await runner.query(`SELECT ${INGEST_JOBS_SCHEMA}.delete_queue($1)`, [READING_DAYS_BACKFILL_QUEUE]);
      await runner.commitTransaction();
    } catch (error) {
      await runner.rollbackTransaction();
      throw error;
    }
  }

  async down() {
    throw new Error('ReadingRowsRetired is not reversible: the readings are in ingest.reading_days only (restore a backup to go back)');
  }
}
