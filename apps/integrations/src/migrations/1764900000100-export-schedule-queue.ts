import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createPeriodicQueue } from '@meter/persistence';
import { EXPORT_JOBS_SCHEMA } from './1764100000002-export-jobs';

/** The export schedule's tick: a periodic pg-boss job, one run at a time across replicas. */
export const EXPORT_SCHEDULE_QUEUE = 'export-schedule';

export class ExportScheduleQueue1764900000100 implements MigrationInterface {
  name = 'ExportScheduleQueue1764900000100';

  async up(runner: QueryRunner) {
    await createPeriodicQueue(runner, EXPORT_JOBS_SCHEMA, EXPORT_SCHEDULE_QUEUE);
  }

  async down(runner: QueryRunner) {
    await runner.query(`SELECT ${EXPORT_JOBS_SCHEMA}.delete_queue($1)`, [EXPORT_SCHEDULE_QUEUE]);
  }
}
