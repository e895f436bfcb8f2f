import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import { createSchemaMigration } from './create-schema.migration';
import { createDataSource } from './data-source';
import { ensureDatabase } from './ensure-database';
import { runMigrations } from './run-migrations';

describe('database creation and migrations against Postgres', () => {
  let infra: IsolatedInfra;

  beforeAll(async () => {
    infra = await isolatedInfra({ migrate: false });
  });
  afterAll(() => infra?.cleanup());

  it('creates a missing database, and is a no-op when it exists', async () => {
    const url = Object.assign(new URL(infra.databaseUrl), { pathname: `/${new URL(infra.databaseUrl).pathname.slice(1)}_extra` }).toString();
    await ensureDatabase(url);
    await ensureDatabase(url);
    const client = new Client({ connectionString: url });
    await client.connect();
    expect((await client.query('SELECT current_database() AS db')).rows[0].db).toMatch(/_extra$/);
    await client.end();
    const admin = new Client({ connectionString: infra.databaseUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE ${new URL(url).pathname.slice(1)} WITH (FORCE)`);
    await admin.end();
  });

  it('applies each migration exactly once, even from processes starting together', async () => {
    const store = { schema: 'sample', migrations: [createSchemaMigration('sample')] };
    const sources = await Promise.all(
      [1, 2, 3].map((n) => createDataSource({ ...store, url: infra.databaseUrl, poolSize: 2, applicationName: `m${n}` }).initialize()),
    );
    const applied = await Promise.all(sources.map((ds) => runMigrations(ds)));
    expect(applied.flat()).toEqual(['CreateSchemaSample1763700000000']);
    const schema = await sources[0].query(`SELECT 1 FROM information_schema.schemata WHERE schema_name = 'sample'`);
    expect(schema).toHaveLength(1);
    await Promise.all(sources.map((ds) => ds.destroy()));
  });
});
