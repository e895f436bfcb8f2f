import PgBoss from 'pg-boss';
import type { QueryRunner } from 'typeorm';

/** A piece of periodic work: one pg-boss queue, one run at a time across every replica. */
export interface PeriodicJob {
  /** Its pg-boss queue, created by a migration with `periodicQueueSql`. */
  queue: string;
  /** From the start of one run to the start of the next (any number of seconds: pg-boss's cron only knows minutes). */
  everySeconds: number;
  /** The first run after a start that finds none queued. */
  firstAfterSeconds: number;
  /** A run still active this long is taken for dead (its process died): failed, and the next one may start. */
  expireInSeconds: number;
  /** Does the work; reports its own failures (a throw is logged, the next run comes all the same). */
  run(): Promise<void>;
}

export interface PeriodicJobsOptions {
  databaseUrl: string;
  /** The app's own pg-boss schema (`<app>_jobs`), from its migrations. */
  schema: string;
  applicationName: string;
  /**
   * Whether this instance runs pg-boss's maintenance of the schema (fails
   * expired runs, archives finished ones). One instance per schema and
   * process is enough; another that already does it can be left to.
   */
  supervise: boolean;
  /** Told of pg-boss's errors and of runs that threw, with the error. */
  log: { warn(message: string, error?: unknown): void };
}

/**
 * The queue of a periodic job, for a migration: policy `stately` keeps at
 * most one run queued and one active per queue, whichever replica sent or
 * fetched it (pg-boss's unique indexes), which is what makes the work
 * singleton across replicas.
 */
export async function createPeriodicQueue(runner: Pick<QueryRunner, 'query'>, schema: string, queue: string): Promise<void> {
  await runner.query(`SELECT ${schema}.create_queue($1, $2::json)`, [queue, JSON.stringify({ policy: 'stately' })]);
}

/**
 * How often a replica looks for a due run it was not woken for (another
 * replica queued it, or died): a quarter of the period, so a run is at most
 * that late (pg-boss polls at least every 0.5 s).
 */
export const pollSecondsOf = (everySeconds: number) => Math.min(30, Math.max(0.5, everySeconds / 4));

/** Retries of a run whose process died before it queued its successor: the chain of runs must not end while the app lives. */
const RETRY_LIMIT = 1_000_000;

/**
 * Periodic work on pg-boss (docs/architecture.md, "Background work"). Each
 * run first queues the next one, `everySeconds` later, then works: a
 * process that dies mid-run leaves the next run queued for any replica, and
 * its own run is failed once expired (then retried, which queues a next run
 * if none is). Every replica sends a first run at start; the stately queue
 * makes those one job, and never lets a run start while another is active,
 * so two replicas never run the same job at once.
 */
export class PeriodicJobs {
  private readonly boss: PgBoss;
  private readonly wakeUps = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(private readonly options: PeriodicJobsOptions) {
    this.boss = new PgBoss({
      connectionString: options.databaseUrl,
      schema: options.schema,
      application_name: options.applicationName,
      // A poll, a send or a completion at a time is all periodic work asks; each connection counts against the server's limit.
      max: 1,
      // The schema and queues come from the migrations.
      migrate: false,
      schedule: false,
      supervise: options.supervise,
      maintenanceIntervalSeconds: 30,
    });
    this.boss.on('error', (error) => options.log.warn(`periodic jobs: ${error.message}`, error));
  }

  async start(jobs: readonly PeriodicJob[]): Promise<void> {
    await this.boss.start();
    for (const job of jobs) {
      // Named once work() answers; a run fetched before that (a due one left queued) just goes unwoken.
      let worker = '';
      worker = await this.boss.work(job.queue, { batchSize: 1, pollingIntervalSeconds: pollSecondsOf(job.everySeconds) }, () => this.turn(job, worker));
      await this.queueNext(job, worker, job.firstAfterSeconds);
    }
  }

  private async turn(job: PeriodicJob, worker: string): Promise<void> {
    await this.queueNext(job, worker, job.everySeconds);
    try {
      await job.run();
    } catch (error) {
      this.options.log.warn(`${job.queue}: ${error instanceof Error ? error.message : String(error)}`, error);
    }
  }

  /**
   * Queues a run `afterSeconds` from now, unless one is queued already (then
   * this sends nothing), and wakes this replica's worker then: the run starts
   * on time rather than at the next poll. The wake-up only makes the worker
   * look; pg-boss still decides who runs what.
   */
  private async queueNext(job: PeriodicJob, worker: string, afterSeconds: number): Promise<void> {
    const seconds = Math.max(1, Math.round(afterSeconds));
    await this.boss.send(job.queue, {}, { startAfter: seconds, expireInSeconds: job.expireInSeconds, retryLimit: RETRY_LIMIT, retryDelay: job.everySeconds });
    if (this.stopped) return;
    // A little past the due time: pg-boss starts a job only once `start_after < now()`.
    const wakeUp = setTimeout(
      () => {
        this.wakeUps.delete(wakeUp);
        this.boss.notifyWorker(worker);
      },
      seconds * 1000 + 50,
    );
    wakeUp.unref();
    this.wakeUps.add(wakeUp);
  }

  /** Stops fetching and waits for the runs under way up to `timeoutMs`; one left unfinished is failed, and the next run is already queued. */
  async stop(timeoutMs: number): Promise<void> {
    this.stopped = true;
    for (const wakeUp of this.wakeUps) clearTimeout(wakeUp);
    await this.boss.stop({ graceful: true, wait: true, timeout: Math.max(1000, timeoutMs) }).catch(() => undefined);
  }
}
