import type { AppConfig } from '@meter/config';
import { createDataSource } from '@meter/persistence';
import type { DataSource } from 'typeorm';
import { authStore } from './migrations';

/** The auth tables outside the HTTP process (CLI commands, tests). */
export function authDataSource(config: Pick<AppConfig, 'DATABASE_URL'>, applicationName = 'auth-cli'): Promise<DataSource> {
  return createDataSource({ ...authStore, url: config.DATABASE_URL, poolSize: 2, applicationName }).initialize();
}
