import type { MigrationInterface, QueryRunner } from 'typeorm';
import { ALERT_EVENTS_CHANNEL } from '../alerts/alert-outbox';

/**
 * Alert episodes (docs/alerts-and-webhooks.md): the episodes themselves, at
 * most one open per device, channel and code; what the reading rules
 * remember of each channel between batches; and the outbox of alert events
 * for webhooks, relayed to OUTBOUND_EVENTS by ingest. Channels with readings
 * already stored get a state row marked for rebuilding from their history
 * (`tail` null), so the silence check covers them at once.
 */
export class AlertEpisodes1764200000000 implements MigrationInterface {
  name = 'AlertEpisodes1764200000000';

  async up(runner: QueryRunner) {
    await runner.query(`
      CREATE TABLE ingest.alert_episodes (
        id uuid PRIMARY KEY,
        org_id text COLLATE "C" NOT NULL,
        device_id bigint NOT NULL,
        channel smallint NOT NULL,
        code text NOT NULL,
        state text NOT NULL CHECK (state IN ('open', 'cleared')),
        raised_at timestamptz NOT NULL,
        cleared_at timestamptz,
        message text NOT NULL,
        CHECK ((state = 'open') = (cleared_at IS NULL))
      )`);
    await runner.query(`CREATE UNIQUE INDEX alert_episodes_one_open ON ingest.alert_episodes (org_id, device_id, channel, code) WHERE state = 'open'`);
    await runner.query(`CREATE INDEX alert_episodes_newest ON ingest.alert_episodes (org_id, raised_at DESC, id DESC)`);
    await runner.query(`CREATE INDEX alert_episodes_device_newest ON ingest.alert_episodes (org_id, device_id, raised_at DESC, id DESC)`);
    await runner.query(`
      CREATE TABLE ingest.channel_alert_state (
        org_id text COLLATE "C" NOT NULL,
        device_id bigint NOT NULL,
        channel smallint NOT NULL,
        latest_at timestamptz NOT NULL,
        first_at timestamptz NOT NULL,
        run_since timestamptz NOT NULL,
        last_still_at timestamptz,
        last_flow_at timestamptz,
        -- [read_at ms, cum, ...] of the last hour's readings; null: rebuild from the stored readings first
        tail float8[],
        PRIMARY KEY (org_id, device_id, channel)
      )`);
    await runner.query(`CREATE INDEX channel_alert_state_latest ON ingest.channel_alert_state (latest_at)`);
    await runner.query(`
      INSERT INTO ingest.channel_alert_state (org_id, device_id, channel, latest_at, first_at, run_since)
      SELECT org_id, device_id, channel, max(read_at), min(read_at), max(read_at) FROM ingest.readings GROUP BY 1, 2, 3`);
    await runner.query(`
      CREATE TABLE ingest.alert_outbox (
        seq bigserial PRIMARY KEY,
        event_id uuid NOT NULL UNIQUE,
        subject text NOT NULL,
        payload jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        published_at timestamptz
      )`);
    await runner.query(`CREATE INDEX alert_outbox_pending ON ingest.alert_outbox (seq) WHERE published_at IS NULL`);
    // Any writer (a batch, the silence check, a replica) wakes every relay at commit.
    await runner.query(`
      CREATE FUNCTION ingest.notify_alert_events() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('${ALERT_EVENTS_CHANNEL}', '');
        RETURN NULL;
      END $$`);
    await runner.query(
      `CREATE TRIGGER alert_outbox_inserted AFTER INSERT ON ingest.alert_outbox FOR EACH STATEMENT EXECUTE FUNCTION ingest.notify_alert_events()`,
    );
  }

  async down(runner: QueryRunner) {
    await runner.query('DROP TABLE IF EXISTS ingest.alert_outbox');
    await runner.query('DROP FUNCTION IF EXISTS ingest.notify_alert_events()');
    await runner.query('DROP TABLE IF EXISTS ingest.channel_alert_state');
    await runner.query('DROP TABLE IF EXISTS ingest.alert_episodes');
  }
}
