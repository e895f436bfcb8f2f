import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { DatabaseOutage, PeriodicWork } from '@meter/persistence';
import { READING_DAYS_BACKFILL_QUEUE } from '../migrations/reading-days-backfill.migration';
import { backfillFinished, backfillReadingDays } from './reading-days-backfill';

/** A run works this long at most, then leaves the rest to the next: batches, not the whole database, are what ingest waits for. */
const RUN_BUDGET_MS = 20_000;
const EVERY_SECONDS = 30;
/** Well past a run's budget plus its last batch: a run still active then is taken for dead. */
const RUN_EXPIRE_SECONDS = 300;

/**
 * Backfills the compact store in the background (docs/read-model.md, "The
 * compact store and its backfill"): a periodic pg-boss job, one replica at a
 * time, each run batches of READINGS_BACKFILL_BATCH_CHANNELS channels for up
 * to 20 s while ingest goes on. Once every month is done it does nothing: no
 * job at all when ingest starts on a database that is done.
 */
@Injectable()
export class ReadingDaysBackfiller implements OnModuleInit {
  private readonly logger = new Logger('reading-days-backfill');
  private finished = false;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DatabaseOutage) private readonly outage: DatabaseOutage,
    @Inject(PeriodicWork) private readonly periodic: PeriodicWork,
  ) {}

  async onModuleInit() {
    this.finished = await backfillFinished(this.dataSource).catch(() => false);
    if (this.finished) return;
    this.periodic.register({
      queue: READING_DAYS_BACKFILL_QUEUE,
      everySeconds: EVERY_SECONDS,
      firstAfterSeconds: 5,
      expireInSeconds: RUN_EXPIRE_SECONDS,
      run: () => this.run(),
    });
  }

  private async run() {
    if (this.finished) return;
    try {
      const run = await backfillReadingDays(this.dataSource, { batchChannels: this.config.READINGS_BACKFILL_BATCH_CHANNELS, budgetMs: RUN_BUDGET_MS });
      if (run.batches > 0) {
        this.logger.log(`month ${run.month}: ${run.channels} channels, ${run.days} day rows, ${run.readings} readings in ${run.batches} batches`);
      }
      if (run.finished) {
        this.finished = true;
        this.logger.log('every month is in the compact store; the backfill is done');
      }
    } catch (error) {
      if (!this.outage.report(error)) this.logger.warn(`backfill failed, will resume: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
