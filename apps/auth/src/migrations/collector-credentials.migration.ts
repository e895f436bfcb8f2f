import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Collector credentials (docs/collectors.md): the password only as an Argon2id hash. */
export class CollectorCredentials1764400000000 implements MigrationInterface {
  name = 'CollectorCredentials1764400000000';

  async up(runner: QueryRunner) {
    await runner.query(`
      CREATE TABLE auth.collector_credentials (
        id text PRIMARY KEY,
        org_id text NOT NULL REFERENCES auth.organizations (id),
        name text NOT NULL,
        format text NOT NULL CHECK (format IN ('native', 'wmbusmeters', 'chirpstack', 'ttn')),
        mapping jsonb NOT NULL DEFAULT '{}',
        username text NOT NULL UNIQUE,
        password_hash text NOT NULL,
        status text NOT NULL CHECK (status IN ('active', 'revoked')),
        created_at timestamptz NOT NULL,
        revoked_at timestamptz,
        version integer NOT NULL
      )`);
    await runner.query('CREATE INDEX collector_credentials_org ON auth.collector_credentials (org_id, created_at, id)');
  }

  async down(runner: QueryRunner) {
    await runner.query('DROP TABLE auth.collector_credentials');
  }
}
