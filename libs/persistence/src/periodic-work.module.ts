import { Global, Inject, Injectable, Logger, Module, type BeforeApplicationShutdown, type DynamicModule, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { DatabaseOutage } from './database-outage';
import { PeriodicJobs, type PeriodicJob } from './periodic-jobs';

const PERIODIC_JOBS = Symbol('PERIODIC_JOBS');

/**
 * The app's periodic work: services register their jobs while the modules
 * initialise (`onModuleInit`); all start once the app is up and stop first
 * on shutdown, within the process's grace.
 */
@Injectable()
export class PeriodicWork implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly jobs: PeriodicJob[] = [];

  constructor(
    @Inject(PERIODIC_JOBS) private readonly periodic: PeriodicJobs,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  register(job: PeriodicJob): void {
    this.jobs.push(job);
  }

  async onApplicationBootstrap() {
    await this.periodic.start(this.jobs);
  }

  async beforeApplicationShutdown() {
    await this.periodic.stop(this.config.SHUTDOWN_TIMEOUT_MS - 2000);
  }
}

export interface PeriodicWorkOptions {
  /** The app's pg-boss schema, from its migrations. */
  schema: string;
  applicationName: string;
  /** False where another pg-boss instance of the process already maintains the schema. */
  supervise: boolean;
}

/** Periodic work on pg-boss for one app (PeriodicJobs), on the app's own `<app>_jobs` schema. */
@Global()
@Module({})
export class PeriodicWorkModule {
  static forService(options: PeriodicWorkOptions): DynamicModule {
    return {
      module: PeriodicWorkModule,
      providers: [
        {
          provide: PERIODIC_JOBS,
          inject: [APP_CONFIG, DatabaseOutage],
          useFactory: (config: AppConfig, outage: DatabaseOutage) => {
            const logger = new Logger('periodic-jobs');
            // Postgres away is reported once by DatabaseOutage, not at every poll.
            const log = {
              warn: (message: string, error?: unknown) => {
                if (!outage.report(error)) logger.warn(message);
              },
            };
            return new PeriodicJobs({ databaseUrl: config.DATABASE_URL, ...options, log });
          },
        },
        PeriodicWork,
      ],
      exports: [PeriodicWork],
    };
  }
}
