import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Whether a day row reads a register reset, kept with the row (`has_reset`)
 * and indexed where true: the dashboard asks every channel whether it read a
 * reset in the month so far, which otherwise unpacks every day row of the
 * month (16 ms for 100 devices, docs/benchmarks.md "Scale"); with the flag
 * it is one probe per channel into an index of the few days that have one,
 * as the row store's `readings_resets` was. Rows already stored get theirs
 * from their packed readings.
 */
export class ReadingDayResets1765200000000 implements MigrationInterface {
  name = 'ReadingDayResets1765200000000';

  async up(runner: QueryRunner) {
    await runner.query(`ALTER TABLE ingest.reading_days ADD COLUMN IF NOT EXISTS has_reset boolean NOT NULL DEFAULT false`);
    await runner.query(`
      UPDATE ingest.reading_days d SET has_reset = true
      WHERE NOT d.has_reset
        AND EXISTS (SELECT 1 FROM ingest.day_readings(d.day, d.readings, d.prev_at, d.prev_value, d.cum_before) r WHERE r.reset)`);
    await runner.query(`CREATE INDEX IF NOT EXISTS reading_days_resets ON ingest.reading_days (org_id, device_id, channel, day) WHERE has_reset`);
  }

  async down(runner: QueryRunner) {
    await runner.query('DROP INDEX IF EXISTS ingest.reading_days_resets');
    await runner.query('ALTER TABLE ingest.reading_days DROP COLUMN IF EXISTS has_reset');
  }
}
