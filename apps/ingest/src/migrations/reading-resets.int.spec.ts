import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSource } from 'typeorm';
import { createDataSource } from '@meter/persistence';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import { migrateIngestBefore } from '@meter/testing/earlier-layout';
import { ReadingResets1764600000000 } from './reading-resets.migration';

describe('ReadingResets: the partial index of resets, on partitions that exist and ones made later', () => {
  let infra: IsolatedInfra;
  let ds: DataSource;

  const partitionsIndexed = async () =>
    (await ds.query(
      `SELECT c.relname AS partition, ix.relname AS index, p.indisvalid AS valid
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       LEFT JOIN (pg_inherits x JOIN pg_index p ON p.indexrelid = x.inhrelid JOIN pg_class ix ON ix.oid = x.inhrelid)
         ON x.inhparent = to_regclass('ingest.readings_resets') AND p.indrelid = c.oid
       WHERE i.inhparent = 'ingest.readings'::regclass ORDER BY 1`,
    )) as { partition: string; index: string | null; valid: boolean | null }[];
  const parentValid = async () =>
    ((await ds.query(`SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = to_regclass('ingest.readings_resets')`)) as { valid: boolean }[])[0]?.valid;

  beforeAll(async () => {
    // The index was built on the table of one row per reading, which the compact store retired.
    infra = await isolatedInfra({ migrate: false });
    await migrateIngestBefore(infra.databaseUrl, 'ReadingRowsRetired1765300000000');
    ds = await createDataSource({ schema: 'ingest', url: infra.databaseUrl, poolSize: 2, applicationName: 'resets-test' }).initialize();
  });
  afterAll(async () => {
    await ds?.destroy();
    await infra?.cleanup();
  });

  it('builds on existing partitions with readings, again without harm, and new partitions inherit it', async () => {
    const migration = new ReadingResets1764600000000();
    const runner = ds.createQueryRunner();
    try {
      // the layout before: partitions holding readings, no index of resets
      await migration.down(runner);
      for (const month of ['2026-10-01', '2026-11-01']) await ds.query('SELECT ingest.ensure_readings_partition($1::timestamptz)', [month]);
      await ds.query(
        `INSERT INTO ingest.readings (org_id, device_id, channel, read_at, value, prev_read_at, delta, reset, cum, stream_seq)
         SELECT 'o', 1, 1, t, 1, NULL, 0, extract(day from t) = 7, 0, 1 FROM generate_series('2026-10-01'::timestamptz, '2026-11-30', '1 day') t`,
      );
      expect(await parentValid()).toBeUndefined();

      await migration.up(runner);
      expect(await partitionsIndexed()).toEqual([
        { partition: 'readings_2026_10', index: 'readings_2026_10_resets', valid: true },
        { partition: 'readings_2026_11', index: 'readings_2026_11_resets', valid: true },
      ]);
      expect(await parentValid()).toBe(true);
      expect(await ds.query(`SELECT count(*)::int AS n FROM ingest.readings WHERE org_id = 'o' AND device_id = 1 AND channel = 1 AND reset`)).toEqual([
        { n: 2 },
      ]);

      await migration.up(runner);
      await ds.query('SELECT ingest.ensure_readings_partition($1::timestamptz)', ['2026-12-01']);
      const indexed = await partitionsIndexed();
      expect(indexed).toHaveLength(3);
      expect(indexed.every((p) => p.index !== null && p.valid)).toBe(true);
      expect(await parentValid()).toBe(true);
    } finally {
      await runner.release();
    }
  });
});
