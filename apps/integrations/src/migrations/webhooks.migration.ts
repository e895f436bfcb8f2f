import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhooks (docs/alerts-and-webhooks.md): the organizations' endpoints with
 * their sealed secrets, the outbound events they were sent (the body every
 * attempt sends, byte for byte) and one delivery per endpoint and event.
 */
export class Webhooks1764200000000 implements MigrationInterface {
  name = 'Webhooks1764200000000';

  async up(runner: QueryRunner) {
    await runner.query(`
      CREATE TABLE integrations.webhook_endpoints (
        id uuid PRIMARY KEY,
        org_id text COLLATE "C" NOT NULL,
        url text NOT NULL,
        events text[] NOT NULL,
        description text,
        status text NOT NULL CHECK (status IN ('enabled', 'disabled')),
        disabled_reason text,
        -- whsec_ secrets sealed under WEBHOOK_SECRET_KEYRING; the previous one signs too until it expires
        sealed_secret text NOT NULL,
        previous_sealed_secret text,
        previous_secret_expires_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`CREATE INDEX webhook_endpoints_org ON integrations.webhook_endpoints (org_id, created_at)`);
    await runner.query(`
      CREATE TABLE integrations.webhook_events (
        event_id uuid PRIMARY KEY,
        org_id text COLLATE "C" NOT NULL,
        type text NOT NULL,
        body text NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`
      CREATE TABLE integrations.webhook_deliveries (
        id uuid PRIMARY KEY,
        endpoint_id uuid NOT NULL REFERENCES integrations.webhook_endpoints (id) ON DELETE CASCADE,
        org_id text COLLATE "C" NOT NULL,
        event_id uuid NOT NULL REFERENCES integrations.webhook_events (event_id),
        type text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        -- attempts allowed before the delivery fails (the schedule's, or one more after a manual retry)
        max_attempts integer NOT NULL,
        last_status_code integer,
        last_error text,
        next_attempt_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_attempt_at timestamptz,
        UNIQUE (endpoint_id, event_id)
      )`);
    await runner.query(`CREATE INDEX webhook_deliveries_due ON integrations.webhook_deliveries (next_attempt_at) WHERE status = 'pending'`);
    await runner.query(`CREATE INDEX webhook_deliveries_newest ON integrations.webhook_deliveries (endpoint_id, created_at DESC)`);
  }

  async down(runner: QueryRunner) {
    await runner.query('DROP TABLE IF EXISTS integrations.webhook_deliveries');
    await runner.query('DROP TABLE IF EXISTS integrations.webhook_events');
    await runner.query('DROP TABLE IF EXISTS integrations.webhook_endpoints');
  }
}
