import { createDataSource, ensureDatabase, runMigrations } from '@meter/persistence';
import { SERVICE_STORES } from './service-stores';

/**
 * The one way the platform migrates (`cli migrate`, which `npm start`,
 * `npm run migrate`, the Kubernetes Job and compose run, and the tests):
 * creates the database if absent and applies every schema's pending
 * migrations, each under a Postgres advisory lock.
 */
export async function migrateAll(databaseUrl: string, log: (line: string) => void = () => undefined): Promise<void> {
  await ensureDatabase(databaseUrl);
  for (const [service, store] of Object.entries(SERVICE_STORES)) {
    const dataSource = await createDataSource({ ...store, url: databaseUrl, poolSize: 2, applicationName: `migrate-${service}` }).initialize();
    try {
      const applied = await runMigrations(dataSource);
      log(`${service}: ${applied.length ? `applied ${applied.join(', ')}` : 'up to date'}`);
    } finally {
      await dataSource.destroy();
    }
  }
}
