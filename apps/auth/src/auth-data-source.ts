import { redactUrl, type AppConfig } from '@meter/config';
import { createDataSource } from '@meter/persistence';
import type { DataSource } from 'typeorm';
import { authStore } from './migrations';

/** The auth tables outside the HTTP process (CLI commands, tests); refuses a database not migrated yet. */
export async function authDataSource(config: Pick<AppConfig, 'DATABASE_URL'>, applicationName = 'auth-cli'): Promise<DataSource> {
  const dataSource = await createDataSource({ ...authStore, url: config.DATABASE_URL, poolSize: 2, applicationName }).initialize();
  const [{ present }] = (await dataSource.query(`SELECT to_regclass('auth.events') IS NOT NULL AS present`)) as { present: boolean }[];
  if (!present) {
    await dataSource.destroy();
    throw new Error(`the auth tables do not exist in ${redactUrl(config.DATABASE_URL)}; run \`npm run migrate\` (or \`npm start\`) first`);
  }
  return dataSource;
}
