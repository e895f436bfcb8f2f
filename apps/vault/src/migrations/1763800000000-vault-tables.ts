import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Data keys (one per organization, stored only wrapped under the root key
 * ring), sealed entries, and the audit outbox relayed to VAULT_AUDIT.
 */
export class VaultTables1763800000000 implements MigrationInterface {
  name = 'VaultTables1763800000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE vault.data_keys (
        org_id text PRIMARY KEY,
        wrapped_key text NOT NULL,
        root_key_id text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        rewrapped_at timestamptz
      )`);
    await runner.query(`CREATE INDEX data_keys_root_key_id ON vault.data_keys (root_key_id)`);
    await runner.query(`
      CREATE TABLE vault.entries (
        id uuid PRIMARY KEY,
        org_id text NOT NULL REFERENCES vault.data_keys (org_id),
        namespace text NOT NULL,
        type text NOT NULL,
        version integer NOT NULL CHECK (version >= 1),
        sealed_data text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT entries_org_namespace_type UNIQUE (org_id, namespace, type)
      )`);
    await runner.query(`
      CREATE TABLE vault.audit_outbox (
        seq bigserial PRIMARY KEY,
        event_id uuid NOT NULL UNIQUE,
        subject text NOT NULL,
        payload jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        published_at timestamptz
      )`);
    await runner.query(`CREATE INDEX audit_outbox_unpublished ON vault.audit_outbox (seq) WHERE published_at IS NULL`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE vault.audit_outbox`);
    await runner.query(`DROP TABLE vault.entries`);
    await runner.query(`DROP TABLE vault.data_keys`);
  }
}
