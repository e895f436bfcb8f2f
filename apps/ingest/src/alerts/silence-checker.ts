import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { Counter } from 'prom-client';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { Metrics } from '@meter/http';
import { DatabaseOutage, PeriodicWork } from '@meter/persistence';
import { pruneReadingChanges } from '../change-log/prune-reading-changes';
import { SILENCE_CHECK_QUEUE } from '../migrations/ingest-jobs.migration';
import { checkSilences } from './silence-check';
import { AlertEventsRelay } from './alert-events-relay';

/** A check still running this long is taken for dead and the next may start; one still alive meets it at the advisory lock. */
const CHECK_EXPIRE_SECONDS = 60;

/**
 * NO_COMMUNICATION by the clock: every ALERT_SILENCE_CHECK_SECONDS (30 s by
 * default, at most 60) a check, a periodic pg-boss job that one ingest
 * replica at a time runs (PeriodicJobs); its advisory lock still guards it
 * (docs/alerts-and-webhooks.md). Its
 * clock is the real one, or TEST_NOW in tests. The same tick prunes the
 * change log of what its readers have taken (docs/exports.md).
 */
@Injectable()
export class SilenceChecker implements OnModuleInit {
  private readonly logger = new Logger('silence-check');
  private readonly raised: Counter;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(AlertEventsRelay) private readonly relay: AlertEventsRelay,
    @Inject(DatabaseOutage) private readonly outage: DatabaseOutage,
    @Inject(Metrics) metrics: Metrics,
    @Inject(PeriodicWork) private readonly periodic: PeriodicWork,
  ) {
    this.raised = new Counter({
      name: 'meter_ingest_silences_raised_total',
      help: 'NO_COMMUNICATION episodes opened by the clock',
      registers: [metrics.registry],
    });
  }

  onModuleInit() {
    this.periodic.register({
      queue: SILENCE_CHECK_QUEUE,
      everySeconds: this.config.ALERT_SILENCE_CHECK_SECONDS,
      firstAfterSeconds: 1,
      expireInSeconds: CHECK_EXPIRE_SECONDS,
      run: () => this.check(),
    });
  }

  private async check() {
    try {
      const opened = await this.dataSource.transaction((manager) => checkSilences(manager.queryRunner!, this.config.TEST_NOW ?? Date.now()));
      if (opened) {
        this.raised.inc(opened);
        this.relay.nudge();
      }
      // The replica whose turn it was (it held the check's lock) also prunes the change log.
      if (opened !== null) await pruneReadingChanges(this.dataSource);
    } catch (error) {
      if (!this.outage.report(error)) this.logger.warn(`silence check failed, will retry: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
