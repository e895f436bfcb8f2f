import { DataSource, type MixedList, type EntitySchema } from 'typeorm';

export interface ServiceStore {
  /** The Postgres schema the service owns, e.g. `auth`; its migrations create it. */
  schema: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities?: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations?: MixedList<Function | string>;
  /** Postgres run-time settings for every connection, as libpq `options` (e.g. `-c plan_cache_mode=force_generic_plan`). */
  connectionOptions?: string;
}

export interface DataSourceOptions extends ServiceStore {
  url: string;
  poolSize: number;
  applicationName: string;
}

/**
 * The service's TypeORM data source. Schema changes only ever come from
 * migrations (`synchronize` is off); their bookkeeping table lives in
 * `public` so the first migration can create the service's schema.
 */
export function createDataSource(options: DataSourceOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: options.url,
    applicationName: options.applicationName,
    entities: options.entities ?? [],
    migrations: options.migrations ?? [],
    migrationsTableName: `${options.schema}_migrations`,
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    // No TypeORM console logging: it prints a failed query with its bound values, outside the redacting
    // logger. A failure reaches its caller, and whatever logs it goes through pino (`err.parameters` redacted).
    logging: false,
    poolSize: options.poolSize,
    extra: { connectionTimeoutMillis: 3000, idleTimeoutMillis: 30_000, ...(options.connectionOptions ? { options: options.connectionOptions } : {}) },
  });
}
