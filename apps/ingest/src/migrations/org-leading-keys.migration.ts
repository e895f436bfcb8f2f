import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every primary and unique key of the read model leads with `org_id`, so each
 * table can be distributed by organization (Citus, docs/capacity.md) as it
 * is. The change log and the episodes keep their ids, now behind the
 * organization; the alert outbox gets the organization of its event as a
 * column. Each statement rewrites one index under the table's lock: the
 * change log is emptied as readers take it and the outbox and episodes are
 * small next to the readings, so ingest waits for seconds, not minutes.
 */
export class OrgLeadingKeys1764800000000 implements MigrationInterface {
  name = 'OrgLeadingKeys1764800000000';

  async up(runner: QueryRunner) {
    await runner.query(`ALTER TABLE ingest.reading_changes DROP CONSTRAINT reading_changes_pkey, ADD PRIMARY KEY (org_id, seq)`);
    await runner.query(`ALTER TABLE ingest.alert_episodes DROP CONSTRAINT alert_episodes_pkey, ADD PRIMARY KEY (org_id, id)`);
    await runner.query(`ALTER TABLE ingest.alert_outbox ADD COLUMN org_id text COLLATE "C"`);
    await runner.query(`UPDATE ingest.alert_outbox SET org_id = payload->>'org_id'`);
    await runner.query(`
      ALTER TABLE ingest.alert_outbox
        ALTER COLUMN org_id SET NOT NULL,
        DROP CONSTRAINT alert_outbox_pkey,
        DROP CONSTRAINT alert_outbox_event_id_key,
        ADD PRIMARY KEY (org_id, seq),
        ADD CONSTRAINT alert_outbox_event_id_key UNIQUE (org_id, event_id)`);
  }

  async down(runner: QueryRunner) {
    await runner.query(`
      ALTER TABLE ingest.alert_outbox
        DROP CONSTRAINT alert_outbox_pkey,
        DROP CONSTRAINT alert_outbox_event_id_key,
        ADD PRIMARY KEY (seq),
        ADD CONSTRAINT alert_outbox_event_id_key UNIQUE (event_id),
        DROP COLUMN org_id`);
    await runner.query(`ALTER TABLE ingest.alert_episodes DROP CONSTRAINT alert_episodes_pkey, ADD PRIMARY KEY (id)`);
    await runner.query(`ALTER TABLE ingest.reading_changes DROP CONSTRAINT reading_changes_pkey, ADD PRIMARY KEY (seq)`);
  }
}
