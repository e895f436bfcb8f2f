import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Device settings: a tariff (standing charge and monthly blocks, replacing
 * price_per_unit when set) and the thresholds of the alert rules, in the
 * device's unit. Existing devices get the defaults: no tariff, leaks judged
 * against 0, BURST off, NO_FLOW after 30 days, NO_COMMUNICATION after 48
 * hours.
 */
export class DeviceSettings1764000000000 implements MigrationInterface {
  name = 'DeviceSettings1764000000000';

  async up(runner: QueryRunner) {
    await runner.query(`
      ALTER TABLE ingest.devices
        ADD COLUMN tariff jsonb,
        ADD COLUMN leak_threshold_per_hour double precision NOT NULL DEFAULT 0 CHECK (leak_threshold_per_hour >= 0),
        ADD COLUMN burst_threshold_per_hour double precision CHECK (burst_threshold_per_hour > 0),
        ADD COLUMN no_flow_days integer NOT NULL DEFAULT 30 CHECK (no_flow_days >= 1),
        ADD COLUMN max_silence_hours integer NOT NULL DEFAULT 48 CHECK (max_silence_hours >= 1)`);
  }

  async down(runner: QueryRunner) {
    await runner.query(`
      ALTER TABLE ingest.devices
        DROP COLUMN tariff, DROP COLUMN leak_threshold_per_hour, DROP COLUMN burst_threshold_per_hour,
        DROP COLUMN no_flow_days, DROP COLUMN max_silence_hours`);
  }
}
