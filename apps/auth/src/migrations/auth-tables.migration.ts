import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The auth event log (which doubles as the outbox) and the state tables
 * it feeds. State rows carry the version of their aggregate so a write
 * based on a stale read fails instead of overwriting.
 */
export class AuthTables1763700100000 implements MigrationInterface {
  name = 'AuthTables1763700100000';

  async up(runner: QueryRunner) {
    await runner.query(`
      CREATE TABLE auth.events (
        seq bigserial PRIMARY KEY,
        event_id uuid NOT NULL UNIQUE,
        type text NOT NULL,
        aggregate_id text NOT NULL,
        org_id text NOT NULL,
        version integer NOT NULL CHECK (version >= 1),
        occurred_at timestamptz NOT NULL,
        payload jsonb NOT NULL,
        published_at timestamptz,
        UNIQUE (aggregate_id, version)
      )`);
    await runner.query(`CREATE INDEX events_unpublished ON auth.events (seq) WHERE published_at IS NULL`);
    await runner.query(`
      CREATE TABLE auth.organizations (
        id text PRIMARY KEY,
        name text NOT NULL,
        scopes text[] NOT NULL,
        created_at timestamptz NOT NULL,
        version integer NOT NULL
      )`);
    await runner.query(`
      CREATE TABLE auth.admins (
        id text PRIMARY KEY,
        org_id text NOT NULL REFERENCES auth.organizations (id),
        email text NOT NULL,
        password_hash text NOT NULL,
        active boolean NOT NULL,
        created_at timestamptz NOT NULL,
        version integer NOT NULL
      )`);
    await runner.query(`CREATE UNIQUE INDEX admins_email ON auth.admins (lower(email))`);
    await runner.query(`
      CREATE TABLE auth.sessions (
        id text PRIMARY KEY,
        token_hash text NOT NULL UNIQUE,
        admin_id text NOT NULL REFERENCES auth.admins (id),
        org_id text NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        ended_at timestamptz,
        version integer NOT NULL
      )`);
    await runner.query(`CREATE INDEX sessions_admin ON auth.sessions (admin_id)`);
    await runner.query(`
      CREATE TABLE auth.credentials (
        id text PRIMARY KEY,
        org_id text NOT NULL REFERENCES auth.organizations (id),
        name text NOT NULL,
        type text NOT NULL CHECK (type IN ('secret', 'public')),
        access_key text NOT NULL UNIQUE,
        scopes text[] NOT NULL,
        allowed_cidrs text[] NOT NULL,
        sealed_secret text,
        status text NOT NULL CHECK (status IN ('active', 'revoked')),
        created_at timestamptz NOT NULL,
        revoked_at timestamptz,
        last_used_at timestamptz,
        version integer NOT NULL
      )`);
    await runner.query(`CREATE INDEX credentials_org ON auth.credentials (org_id, created_at, id)`);
  }

  async down(runner: QueryRunner) {
    for (const table of ['credentials', 'sessions', 'admins', 'organizations', 'events']) {
      await runner.query(`DROP TABLE IF EXISTS auth.${table}`);
    }
  }
}
