import PgBoss from 'pg-boss';
import type { QueryRunner } from 'typeorm';
import { EXPORT_DAY_FAILED_QUEUE, EXPORT_DAY_QUEUE, EXPORT_JOBS_SCHEMA } from '../migrations/1764100000002-export-jobs';

/** One local day of one run: the unit of work, retry and exclusivity. */
export interface DayJob {
  run_id: string;
  date: string;
}

export interface ExportJobsOptions {
  databaseUrl: string;
  /** day jobs one process runs at once */
  concurrency: number;
  /** the longest a day job may stay active, however often its lease is renewed: past it, it is failed, then retried */
  timeoutSeconds: number;
  /** a day job's lease: renewed while its worker lives, so a job whose process died is failed and retried this long after */
  leaseSeconds: number;
  /** first retry delay; each next one about twice as long (pg-boss backoff with jitter) */
  retryDelaySeconds: number;
  pollSeconds: number;
  log: { warn(message: string): void };
}

/** 3 attempts in all: the first and two retries. */
export const DAY_ATTEMPTS = 3;

/** What a day's worker is told of its attempt. */
export interface Attempt {
  number: number;
  final: boolean;
}

/**
 * The durable job queue of the exports: pg-boss on the platform's Postgres
 * (schema `integrations_jobs`). Jobs are inserted in the transaction that
 * creates their run, survive restarts, are spread over every replica's
 * workers, retried with exponential backoff, and failed by timeout when
 * their process died; a day whose last attempt failed or timed out lands in
 * the dead-letter queue.
 */
export class ExportJobs {
  private readonly boss: PgBoss;
  private readonly workerIds: string[] = [];

  constructor(private readonly options: ExportJobsOptions) {
    this.boss = new PgBoss({
      connectionString: options.databaseUrl,
      schema: EXPORT_JOBS_SCHEMA,
      application_name: 'integrations-jobs',
      max: 2,
      // The schema comes from the migrations (1764100000002-export-jobs.ts).
      migrate: false,
      schedule: false,
      supervise: true,
      // Expired jobs are found by maintenance: often enough that a crashed day restarts soon after its lease ran out.
      maintenanceIntervalSeconds: Math.max(1, Math.min(60, Math.floor(Math.min(options.leaseSeconds, options.timeoutSeconds) / 4))),
    });
    this.boss.on('error', (error) => options.log.warn(`job queue: ${error.message}`));
  }

  async start(work: (job: DayJob, attempt: Attempt) => Promise<void>, deadLetter: (job: DayJob) => Promise<void>): Promise<void> {
    await this.boss.start();
    const options = { batchSize: 1, includeMetadata: true as const, pollingIntervalSeconds: this.options.pollSeconds };
    for (let i = 0; i < this.options.concurrency; i++) {
      this.workerIds.push(
        await this.boss.work<DayJob>(EXPORT_DAY_QUEUE, options, async ([job]) => {
          const lease = this.holdLease(job.id);
          try {
            await work(job.data, { number: job.retryCount + 1, final: job.retryCount >= job.retryLimit });
          } finally {
            clearInterval(lease);
          }
        }),
      );
    }
    this.workerIds.push(await this.boss.work<DayJob>(EXPORT_DAY_FAILED_QUEUE, options, async ([job]) => deadLetter(job.data)));
  }

  /**
   * Renews an active day job's lease (pg-boss's `expire_in`, counted from
   * `started_on`) a few times per lease while its worker runs, never past
   * timeoutSeconds in all: a job whose process died stops being renewed and
   * pg-boss's maintenance fails it (then retries it) once the lease runs out.
   */
  private holdLease(jobId: string): NodeJS.Timeout {
    const { leaseSeconds, timeoutSeconds } = this.options;
    const renew = () =>
      this.boss
        .getDb()
        .executeSql(
          `UPDATE ${EXPORT_JOBS_SCHEMA}.job
             SET expire_in = LEAST(date_trunc('second', now() - started_on) + $3 * interval '1 second', $4 * interval '1 second')
           WHERE name = $1 AND id = $2 AND state = 'active'`,
          [EXPORT_DAY_QUEUE, jobId, leaseSeconds, timeoutSeconds],
        )
        .catch((error: Error) => this.options.log.warn(`renewing the lease of day job ${jobId}: ${error.message}`));
    return setInterval(renew, Math.max(1000, (leaseSeconds * 1000) / 4));
  }

  /** Queues the days of a run inside the caller's transaction: they exist exactly when the run does. */
  async enqueue(runner: QueryRunner, jobs: readonly DayJob[]): Promise<void> {
    if (jobs.length === 0) return;
    const db = { executeSql: async (text: string, values: unknown[]) => ({ rows: (await runner.query(text, values, true)).records as unknown[] }) };
    await this.boss.insert(
      jobs.map((data) => ({
        name: EXPORT_DAY_QUEUE,
        data,
        retryLimit: DAY_ATTEMPTS - 1,
        retryDelay: this.options.retryDelaySeconds,
        retryBackoff: true,
        expireInSeconds: Math.min(this.options.leaseSeconds, this.options.timeoutSeconds),
        deadLetter: EXPORT_DAY_FAILED_QUEUE,
      })),
      { db },
    );
  }

  /** After a commit that queued jobs: this process's idle workers look at once instead of at their next poll. */
  wake(): void {
    for (const id of this.workerIds) this.boss.notifyWorker(id);
  }

  /** Stops fetching and waits for the days in progress up to `timeoutMs`; what is left is failed and retried later. */
  async stop(timeoutMs: number): Promise<void> {
    await this.boss.stop({ graceful: true, wait: true, timeout: Math.max(1000, timeoutMs) }).catch(() => undefined);
  }
}
