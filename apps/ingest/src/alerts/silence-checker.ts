import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { Counter } from 'prom-client';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { Metrics } from '@meter/http';
import { DatabaseOutage } from '@meter/persistence';
import { pruneReadingChanges } from '../change-log/prune-reading-changes';
import { checkSilences } from './silence-check';
import { AlertEventsRelay } from './alert-events-relay';

/**
 * NO_COMMUNICATION by the clock: every ALERT_SILENCE_CHECK_SECONDS (30 s by
 * default, at most 60) each ingest replica tries the check; an advisory lock
 * lets one of them run it at a time (docs/alerts-and-webhooks.md). Its
 * clock is the real one, or TEST_NOW in tests. The same tick prunes the
 * change log of what its readers have taken (docs/exports.md).
 */
@Injectable()
export class SilenceChecker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('silence-check');
  private readonly raised: Counter;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(AlertEventsRelay) private readonly relay: AlertEventsRelay,
    @Inject(DatabaseOutage) private readonly outage: DatabaseOutage,
    @Inject(Metrics) metrics: Metrics,
  ) {
    this.raised = new Counter({
      name: 'meter_ingest_silences_raised_total',
      help: 'NO_COMMUNICATION episodes opened by the clock',
      registers: [metrics.registry],
    });
  }

  onApplicationBootstrap() {
    this.schedule(1000);
  }

  async beforeApplicationShutdown() {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number) {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.check().finally(() => this.schedule(this.config.ALERT_SILENCE_CHECK_SECONDS * 1000));
    }, delayMs);
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
