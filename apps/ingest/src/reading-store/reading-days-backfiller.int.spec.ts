import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSource } from 'typeorm';
import { loadConfig } from '@meter/config';
import { createDataSource } from '@meter/persistence';
import { createHttpApp } from '@meter/platform';
import { eventually, isolatedInfra, type IsolatedInfra } from '@meter/testing';
import { IngestModule } from '../ingest.module';
import { ReadingDaysBackfill1765100000100 } from '../migrations/reading-days-backfill.migration';
import { rebuildIntervals } from './reading-store';

describe('ingest backfills the compact store in the background', () => {
  let infra: IsolatedInfra;
  let ds: DataSource;
  let app: NestFastifyApplication | undefined;

  beforeAll(async () => {
    infra = await isolatedInfra();
    ds = await createDataSource({ schema: 'ingest', url: infra.databaseUrl, poolSize: 2, applicationName: 'backfiller-test' }).initialize();
  });
  afterAll(async () => {
    await app?.close();
    await ds?.destroy();
    await infra?.cleanup();
  });

  it('fills the day rows of readings stored before the compact store, then marks the backfill done', async () => {
    // Readings of the old layout in two months, found by the backfill's migration.
    const migration = new ReadingDaysBackfill1765100000100();
    const runner = ds.createQueryRunner();
    try {
      await migration.down(runner);
      for (const month of ['2026-09-01', '2026-10-01']) await ds.query('SELECT ingest.ensure_readings_partition($1::timestamptz)', [month]);
      await ds.query(
        `INSERT INTO ingest.readings (org_id, device_id, channel, read_at, value, prev_read_at, delta, reset, cum, stream_seq)
         SELECT 'org-job', d, 1, t, extract(epoch from t) / 3600 - 494000, NULL, 0, false, 0, 1
         FROM generate_series(1, 3) d, generate_series('2026-09-28Z'::timestamptz, '2026-10-03Z', '5 hours') t`,
      );
      for (const device of [1, 2, 3]) await rebuildIntervals(runner, 'org-job', device);
      await migration.up(runner);
    } finally {
      await runner.release();
    }

    app = await createHttpApp(
      IngestModule.forRoot(loadConfig(infra.env({ READINGS_BACKFILL_BATCH_CHANNELS: '2' }))),
      pino({ level: process.env.TEST_LOG ?? 'silent' }),
    );
    await app.init();
    await eventually(
      async () => (await ds.query(`SELECT 1 FROM ingest.reading_days_backfill WHERE month = 'infinity'`)).length > 0,
      30_000,
      'the backfill to finish',
    );
    expect(await ds.query(`SELECT month::text AS month FROM ingest.reading_days_backfill WHERE done_at IS NOT NULL ORDER BY month`)).toEqual([
      { month: '2026-09-01' },
      { month: '2026-10-01' },
      { month: 'infinity' },
    ]);
    const [counts] = await ds.query(
      `SELECT (SELECT count(*)::int FROM ingest.readings) AS readings, (SELECT sum(reading_count)::int FROM ingest.reading_days) AS packed,
         (SELECT count(*)::int FROM ingest.reading_days) AS days`,
    );
    expect(counts).toEqual({ readings: 3 * 25, packed: 3 * 25, days: 3 * 6 });
  });
});
