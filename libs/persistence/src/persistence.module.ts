import { Global, Inject, Injectable, Module, type DynamicModule, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { ReadinessRegistry } from '@meter/http';
import { DataSource } from 'typeorm';
import { createDataSource, type ServiceStore } from './data-source';

@Injectable()
class PostgresLifecycle implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(ReadinessRegistry) private readonly readiness: ReadinessRegistry,
  ) {}

  onModuleInit() {
    this.readiness.register({ name: 'postgres', check: async () => void (await this.dataSource.query('SELECT 1')) });
  }

  async onApplicationShutdown() {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

/** The service's Postgres pool as a TypeORM `DataSource`, checked by `/readyz`. */
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
        PostgresLifecycle,
      ],
      exports: [DataSource],
    };
  }
}
