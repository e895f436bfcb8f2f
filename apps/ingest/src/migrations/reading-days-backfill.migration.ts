import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createPeriodicQueue } from '@meter/persistence';
import { INGEST_JOBS_SCHEMA } from './ingest-jobs.migration';

/** The backfill of the compact store: a periodic job, one run at a time across replicas. */
export const READING_DAYS_BACKFILL_QUEUE = 'reading-days-backfill';

/**
 * Progress of the in-place backfill of `ingest.reading_days` from the readings
 * stored before the compact store existed (docs/read-model.md, "The compact
 * store and its backfill"): one row per month of `ingest.readings` begun,
 * with the last channel done (its keyset cursor) and when the month was
 * finished; a row for month `infinity` says every month is done, later ones
 * being written to both stores from the start. A database without readings
 * has nothing to backfill and gets that row now.
 */
export class ReadingDaysBackfill1765100000100 implements MigrationInterface {
  name = 'ReadingDaysBackfill1765100000100';

  async up(runner: QueryRunner) {
    await runner.query(`
      CREATE TABLE IF NOT EXISTS ingest.reading_days_backfill (
        month date PRIMARY KEY,
        after_org text COLLATE "C",
        after_device bigint,
        after_channel smallint,
        done_at timestamptz
      )`);
    await runner.query(`
      INSERT INTO ingest.reading_days_backfill (month, done_at)
      SELECT 'infinity', now() WHERE NOT EXISTS (SELECT 1 FROM ingest.readings)
      ON CONFLICT DO NOTHING`);
    await createPeriodicQueue(runner, INGEST_JOBS_SCHEMA, READING_DAYS_BACKFILL_QUEUE);
  }

  async down(runner: QueryRunner) {
    await runner.query(`SELECT ${INGEST_JOBS_SCHEMA}.delete_queue($1)`, [READING_DAYS_BACKFILL_QUEUE]);
    await runner.query('DROP TABLE IF EXISTS ingest.reading_days_backfill');
  }
}
