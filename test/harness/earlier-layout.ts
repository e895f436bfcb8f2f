import { ingestStore } from '@meter/ingest';
import { createDataSource, runMigrations } from '@meter/persistence';

/**
 * Migrates a database's `ingest` schema up to, not including, the migration
 * named `before` (its class name): the layout an earlier release left, for
 * tests of a migration on the data it meets. `migrateAll` later applies the
 * rest.
 */
export async function migrateIngestBefore(databaseUrl: string, before: string): Promise<void> {
  const migrations = (ingestStore.migrations ?? []) as { name: string }[];
  const until = migrations.findIndex((migration) => migration.name === before);
  if (until < 0) throw new Error(`no ingest migration named ${before}`);
  const ds = await createDataSource({
    ...ingestStore,
    migrations: migrations.slice(0, until) as typeof ingestStore.migrations,
    url: databaseUrl,
    poolSize: 2,
    applicationName: 'migrate-earlier-layout',
  }).initialize();
  try {
    await runMigrations(ds);
  } finally {
    await ds.destroy();
  }
}
