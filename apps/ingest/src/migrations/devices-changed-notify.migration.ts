import type { MigrationInterface, QueryRunner } from 'typeorm';
import { DEVICES_CHANGED_CHANNEL } from '@meter/read-model';

/**
 * Every statement that inserts, updates or deletes devices notifies
 * DEVICES_CHANGED_CHANNEL once per organization it touched (Postgres folds
 * repeats within a transaction and delivers at commit). The gateway keeps
 * device pages and records in memory and drops an organization's entries on
 * this signal. Statement-level triggers with transition tables cost one call
 * per statement, nothing per unchanged row.
 */
export class DevicesChangedNotify1763800000002 implements MigrationInterface {
  name = 'DevicesChangedNotify1763800000002';

  async up(runner: QueryRunner) {
    await runner.query(`
      CREATE FUNCTION ingest.notify_devices_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('${DEVICES_CHANGED_CHANNEL}', o.org_id) FROM (SELECT DISTINCT org_id FROM changed) AS o;
        RETURN NULL;
      END $$`);
    await runner.query(`
      CREATE FUNCTION ingest.notify_devices_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('${DEVICES_CHANGED_CHANNEL}', '');
        RETURN NULL;
      END $$`);
    for (const [name, event, table] of [
      ['devices_inserted', 'INSERT', 'NEW'],
      ['devices_updated', 'UPDATE', 'NEW'],
      ['devices_deleted', 'DELETE', 'OLD'],
    ]) {
      await runner.query(
        `CREATE TRIGGER ${name} AFTER ${event} ON ingest.devices REFERENCING ${table} TABLE AS changed
         FOR EACH STATEMENT EXECUTE FUNCTION ingest.notify_devices_changed()`,
      );
    }
    await runner.query(
      'CREATE TRIGGER devices_truncated AFTER TRUNCATE ON ingest.devices FOR EACH STATEMENT EXECUTE FUNCTION ingest.notify_devices_truncated()',
    );
  }

  async down(runner: QueryRunner) {
    for (const name of ['devices_inserted', 'devices_updated', 'devices_deleted', 'devices_truncated']) {
      await runner.query(`DROP TRIGGER IF EXISTS ${name} ON ingest.devices`);
    }
    await runner.query('DROP FUNCTION IF EXISTS ingest.notify_devices_changed()');
    await runner.query('DROP FUNCTION IF EXISTS ingest.notify_devices_truncated()');
  }
}
