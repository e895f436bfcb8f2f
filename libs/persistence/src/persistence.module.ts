import { Global, Inject, Injectable, Logger, Module, type DynamicModule, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { Metrics, ReadinessRegistry, UnavailableDependencies } from '@meter/http';
import { DataSource } from 'typeorm';
import { DatabaseOutage } from './database-outage';
import { isDatabaseUnavailable } from './database-unavailable';
import { createDataSource, type ServiceStore } from './data-source';

/** Seconds a client is asked to wait (`Retry-After`) when Postgres cannot answer. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/** What a request that needs Postgres is answered while it cannot answer (also the API documents' example). */
export const DATABASE_UNAVAILABLE = {
  code: 'database_unavailable',
  detail: 'the database is unavailable; retry after the number of seconds in Retry-After',
  retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
} as const;

@Injectable()
class PostgresLifecycle implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(ReadinessRegistry) private readonly readiness: ReadinessRegistry,
    @Inject(UnavailableDependencies) private readonly unavailable: UnavailableDependencies,
    @Inject(DatabaseOutage) private readonly outage: DatabaseOutage,
    @Inject(Metrics) private readonly metrics: Metrics,
  ) {}

  onModuleInit() {
    this.readiness.register({ name: 'postgres', check: async () => void (await this.dataSource.query('SELECT 1')) });
    // Every HTTP route of the process: Postgres away is 503 database_unavailable with Retry-After, logged once per outage.
    this.unavailable.register({
      ...DATABASE_UNAVAILABLE,
      matches: isDatabaseUnavailable,
      refused: (error) => this.outage.report(error),
    });
    const outage = this.outage;
    new Gauge({
      name: 'meter_postgres_unavailable',
      help: '1 while this process finds Postgres unavailable (from the first failed operation until a probe answers)',
      registers: [this.metrics.registry],
      collect() {
        this.set(outage.active ? 1 : 0);
      },
    });
  }

  async onApplicationShutdown() {
    this.outage.stop();
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

/**
 * The service's Postgres pool as a TypeORM `DataSource`, checked by
 * `/readyz`, and its `DatabaseOutage`: whatever finds Postgres away reports
 * it there, which logs the outage once.
 */
@Global()
@Module({})
export class PersistenceModule {
  static forService(service: string, store: ServiceStore): DynamicModule {
    return {
      module: PersistenceModule,
      providers: [
        {
          provide: DataSource,
          inject: [APP_CONFIG],
          useFactory: async (config: AppConfig) =>
            createDataSource({ ...store, url: config.DATABASE_URL, poolSize: config.DB_POOL_SIZE, applicationName: service }).initialize(),
        },
        {
          provide: DatabaseOutage,
          inject: [DataSource],
          useFactory: (dataSource: DataSource) => {
            const logger = new Logger('postgres');
            return new DatabaseOutage({ probe: () => dataSource.query('SELECT 1'), log: { warn: (message) => logger.warn(message) } });
          },
        },
        PostgresLifecycle,
      ],
      exports: [DataSource, DatabaseOutage],
    };
  }
}
