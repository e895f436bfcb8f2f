import { Inject, Injectable, Logger, Module, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { DayExporter } from './day-exporter';
import { ExportHandlers } from './export-handlers';
import { ExportJobs } from './export-jobs';
import { ExportMetrics } from './export-metrics';
import { ExportOutboxRelay } from './export-outbox-relay';
import { EXPORT_JOBS, ExportRuns } from './export-runs';
import { ExportScheduler } from './export-scheduler';

/** Starts the day workers once everything they use is up; stops them first on shutdown, within the process's grace. */
@Injectable()
class ExportWorkers implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    @Inject(EXPORT_JOBS) private readonly jobs: ExportJobs,
    @Inject(DayExporter) private readonly exporter: DayExporter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap() {
    await this.jobs.start(
      (job, attempt) => this.exporter.run(job, attempt),
      (job) => this.exporter.deadLetter(job),
    );
  }

  async beforeApplicationShutdown() {
    await this.jobs.stop(this.config.SHUTDOWN_TIMEOUT_MS - 2000);
  }
}

/**
 * Batch exports (docs/exports.md): each organization's daily consumption, a
 * file and a manifest per local day, written to its own S3, Azure or GCS
 * storage every night and on demand.
 */
@Module({
  providers: [
    {
      provide: EXPORT_JOBS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => {
        const logger = new Logger('export-jobs');
        return new ExportJobs({
          databaseUrl: config.DATABASE_URL,
          concurrency: config.EXPORT_CONCURRENCY,
          timeoutSeconds: config.EXPORT_DAY_TIMEOUT_SECONDS,
          leaseSeconds: config.EXPORT_DAY_LEASE_SECONDS,
          retryDelaySeconds: config.EXPORT_RETRY_DELAY_SECONDS,
          pollSeconds: config.EXPORT_POLL_SECONDS,
          log: { warn: (message) => logger.warn(message) },
        });
      },
    },
    ExportMetrics,
    ExportOutboxRelay,
    ExportRuns,
    DayExporter,
    ExportScheduler,
    ExportHandlers,
    ExportWorkers,
  ],
})
export class ExportsModule {}
