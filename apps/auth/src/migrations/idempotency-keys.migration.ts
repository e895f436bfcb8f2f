import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The first answer to each `Idempotency-Key` of an organization, kept 24 h (docs/management-api.md, "Idempotency keys"). */
export class IdempotencyKeys1764900000000 implements MigrationInterface {
  name = 'IdempotencyKeys1764900000000';

  async up(runner: QueryRunner) {
    await runner.query(`
      CREATE TABLE auth.idempotency_keys (
        org_id text NOT NULL,
        key text NOT NULL,
        fingerprint text NOT NULL,
        state text NOT NULL CHECK (state IN ('pending', 'completed')),
        response jsonb,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (org_id, key)
      )`);
    await runner.query('CREATE INDEX idempotency_keys_created ON auth.idempotency_keys (created_at)');
  }

  async down(runner: QueryRunner) {
    await runner.query('DROP TABLE auth.idempotency_keys');
  }
}
