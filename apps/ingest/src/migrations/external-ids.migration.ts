import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Radio ids of a device (`external_ids` of the device message): the LoRaWAN
 * DevEUI (16 hex digits, lower case) and the wM-Bus id (8 digits), each
 * naming at most one device of an organization, so collectors find the
 * device an uplink is for with one index lookup.
 */
export class ExternalIds1764500000000 implements MigrationInterface {
  name = 'ExternalIds1764500000000';

  async up(runner: QueryRunner) {
    await runner.query(`
      ALTER TABLE ingest.devices
        ADD COLUMN dev_eui text COLLATE "C" CHECK (dev_eui ~ '^[0-9a-f]{16}$'),
        ADD COLUMN wmbus_id text COLLATE "C" CHECK (wmbus_id ~ '^[0-9]{8}$')`);
    await runner.query('CREATE UNIQUE INDEX devices_dev_eui ON ingest.devices (org_id, dev_eui) WHERE dev_eui IS NOT NULL');
    await runner.query('CREATE UNIQUE INDEX devices_wmbus_id ON ingest.devices (org_id, wmbus_id) WHERE wmbus_id IS NOT NULL');
  }

  async down(runner: QueryRunner) {
    await runner.query('ALTER TABLE ingest.devices DROP COLUMN dev_eui, DROP COLUMN wmbus_id');
  }
}
