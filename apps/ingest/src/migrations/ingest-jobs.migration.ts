import PgBoss from 'pg-boss';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createPeriodicQueue } from '@meter/persistence';

/**
 * Ingest's pg-boss schema, beside `ingest`: its own, so that every schema
 * keeps one writing app (the integrations have `integrations_jobs`).
 */
export const INGEST_JOBS_SCHEMA = 'ingest_jobs';
/** The clock's NO_COMMUNICATION check (and the change log's pruning): a periodic job, one run at a time across replicas. */
export const SILENCE_CHECK_QUEUE = 'silence-check';

/**
 * pg-boss's tables from its construction plan, so that, like every schema
 * of the platform, it comes from a migration (the process starts pg-boss
 * with `migrate: false`). A pg-boss upgrade that changes its schema adds a
 * migration running `PgBoss.getMigrationPlans`.
 */
export class IngestJobs1765000000200 implements MigrationInterface {
  name = 'IngestJobs1765000000200';
  // pg-boss's plan opens and commits its own transaction under its own advisory lock.
  transaction = false as const;

  async up(runner: QueryRunner) {
    await runner.query(PgBoss.getConstructionPlans(INGEST_JOBS_SCHEMA));
    await createPeriodicQueue(runner, INGEST_JOBS_SCHEMA, SILENCE_CHECK_QUEUE);
  }

  async down(runner: QueryRunner) {
    await runner.query(`DROP SCHEMA ${INGEST_JOBS_SCHEMA} CASCADE`);
  }
}
