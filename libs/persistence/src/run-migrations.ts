import type { DataSource } from 'typeorm';
import { ADVISORY_LOCKS } from './advisory-locks';

const MIGRATION_LOCK = ADVISORY_LOCKS.migrations;

/**
 * Applies pending migrations under a Postgres advisory lock, so two
 * processes starting together never apply the same migration twice.
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const lock = dataSource.createQueryRunner();
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await lock.release();
  }
}
