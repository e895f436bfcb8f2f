import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createPeriodicQueue } from '@meter/persistence';
import { EXPORT_JOBS_SCHEMA } from './1764100000002-export-jobs';

/** The webhook delivery log's hourly pruning: a periodic pg-boss job, one run at a time across replicas. */
export const WEBHOOK_RETENTION_QUEUE = 'webhook-retention';

export class WebhookRetentionQueue1764900000101 implements MigrationInterface {
  name = 'WebhookRetentionQueue1764900000101';

  async up(runner: QueryRunner) {
    await createPeriodicQueue(runner, EXPORT_JOBS_SCHEMA, WEBHOOK_RETENTION_QUEUE);
  }

  async down(runner: QueryRunner) {
    await runner.query(`SELECT ${EXPORT_JOBS_SCHEMA}.delete_queue($1)`, [WEBHOOK_RETENTION_QUEUE]);
  }
}
