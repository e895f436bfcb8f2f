import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type QueryRunner } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { datesBetween } from '@meter/consumption';
import type { RunTrigger } from '@meter/contracts';
import { ExportJobs } from './export-jobs';
import { insertRun } from './export-store';

export const EXPORT_JOBS = Symbol('EXPORT_JOBS');

/** Creates runs: the run, one row per local day and one queued job per day, in the caller's transaction. */
@Injectable()
export class ExportRuns {
  constructor(
    @Inject(EXPORT_JOBS) readonly jobs: ExportJobs,
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) readonly config: AppConfig,
  ) {}

  async queue(runner: QueryRunner, integration: { id: string; orgId: string }, from: string, to: string, trigger: RunTrigger): Promise<string> {
    const id = randomUUID();
    const dates = datesBetween(from, to);
    await insertRun(runner, { id, integrationId: integration.id, orgId: integration.orgId, from, to, trigger, dates });
    await this.jobs.enqueue(
      runner,
      dates.map((date) => ({ run_id: id, date })),
    );
    return id;
  }

  /** Runs `work` in a transaction on its own connection, and wakes the workers after it committed. */
  async inTransaction<T>(work: (runner: QueryRunner) => Promise<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      const result = await work(runner);
      await runner.commitTransaction();
      this.jobs.wake();
      return result;
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
  }
}
