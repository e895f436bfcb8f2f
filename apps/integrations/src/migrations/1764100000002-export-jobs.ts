import PgBoss from 'pg-boss';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The job queue's schema (pg-boss), beside the integrations schema. */
export const EXPORT_JOBS_SCHEMA = 'integrations_jobs';
/** One job per local day of a run. */
export const EXPORT_DAY_QUEUE = 'export-day';
/** Where a day job lands once its last attempt failed or timed out. */
export const EXPORT_DAY_FAILED_QUEUE = 'export-day-failed';

/**
 * The job queue of the batch exports: pg-boss's own tables in the schema
 * `integrations_jobs`, created from its construction plan so that, like
 * every schema of the platform, it comes from a migration (the process starts
 * pg-boss with `migrate: false`). A pg-boss upgrade that changes its schema
 * adds a migration running `PgBoss.getMigrationPlans`.
 */
export class ExportJobs1764100000002 implements MigrationInterface {
  name = 'ExportJobs1764100000002';
  // pg-boss's plan opens and commits its own transaction under its own advisory lock.
  transaction = false as const;

  async up(runner: QueryRunner) {
    await runner.query(PgBoss.getConstructionPlans(EXPORT_JOBS_SCHEMA));
    await runner.query(`SELECT ${EXPORT_JOBS_SCHEMA}.create_queue($1, $2::json)`, [EXPORT_DAY_FAILED_QUEUE, JSON.stringify({ policy: 'standard' })]);
    await runner.query(`SELECT ${EXPORT_JOBS_SCHEMA}.create_queue($1, $2::json)`, [
      EXPORT_DAY_QUEUE,
      JSON.stringify({ policy: 'standard', deadLetter: EXPORT_DAY_FAILED_QUEUE }),
    ]);
  }

  async down(runner: QueryRunner) {
    await runner.query(`DROP SCHEMA ${EXPORT_JOBS_SCHEMA} CASCADE`);
  }
}
