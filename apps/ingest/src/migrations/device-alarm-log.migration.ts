import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The device alarm messages ingest has applied, by device, channel, code and
 * stream sequence. Replicas may write one device's messages out of publish
 * order; when an alarm arrives after a later one of its code was applied,
 * the code's episodes are replayed from this log in stream order
 * (docs/read-model.md, "Order across replicas"). Each code keeps its latest
 * message and those of the last hour (ALARM_LOG_HOURS).
 */
export class DeviceAlarmLog1764900000000 implements MigrationInterface {
  name = 'DeviceAlarmLog1764900000000';

  async up(runner: QueryRunner) {
    await runner.query(`
      CREATE TABLE ingest.device_alarm_log (
        org_id text COLLATE "C" NOT NULL,
        device_id bigint NOT NULL,
        channel smallint NOT NULL,
        code text NOT NULL,
        seq bigint NOT NULL,
        state text NOT NULL CHECK (state IN ('raised', 'cleared')),
        at timestamptz NOT NULL,
        message text NOT NULL,
        logged_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, device_id, channel, code, seq)
      )`);
  }

  async down(runner: QueryRunner) {
    await runner.query('DROP TABLE IF EXISTS ingest.device_alarm_log');
  }
}
