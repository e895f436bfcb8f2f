import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Uplinks whose radio id matches no device of the credential's organization:
 * one row per collector credential and radio id, so an admin sees which
 * meters to register (GET /collector-credentials/{id}/unmatched).
 */
export class UnmatchedUplinks1764400000000 implements MigrationInterface {
  name = 'UnmatchedUplinks1764400000000';

  async up(runner: QueryRunner) {
    await runner.query(`
      CREATE TABLE collectors.unmatched_uplinks (
        org_id text COLLATE "C" NOT NULL,
        credential_id text COLLATE "C" NOT NULL,
        radio_id_kind text NOT NULL CHECK (radio_id_kind IN ('dev_eui', 'wmbus_id')),
        radio_id text COLLATE "C" NOT NULL,
        first_seen timestamptz NOT NULL,
        last_seen timestamptz NOT NULL,
        count bigint NOT NULL CHECK (count > 0),
        PRIMARY KEY (org_id, credential_id, radio_id_kind, radio_id)
      )`);
    await runner.query('CREATE INDEX unmatched_uplinks_latest ON collectors.unmatched_uplinks (org_id, credential_id, last_seen DESC)');
  }

  async down(runner: QueryRunner) {
    await runner.query('DROP TABLE collectors.unmatched_uplinks');
  }
}
