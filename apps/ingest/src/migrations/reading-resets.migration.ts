import type { MigrationInterface, QueryRunner } from 'typeorm';
import { quoteIdentifier } from '@meter/persistence';

/**
 * A partial index of the register resets. The dashboard asks whether each
 * channel read a reset in the month so far; without it that is a range scan
 * of every reading of the month (14-19 ms for 100 devices mid-month, the
 * largest part of the dashboard's database time, docs/benchmarks.md
 * "Scale"); with it, one probe per channel into an index of the few resets.
 *
 * Built without blocking ingest: the partitioned index is created on the
 * parent only (invalid, but new partitions get theirs from it), then each
 * existing partition's index concurrently and attached; the parent's index
 * becomes valid when the last one is. Each step can be run again after an
 * interruption.
 */
export class ReadingResets1764600000000 implements MigrationInterface {
  name = 'ReadingResets1764600000000';
  // CREATE INDEX CONCURRENTLY cannot run in a transaction.
  transaction = false as const;

  async up(runner: QueryRunner) {
    await runner.query(`CREATE INDEX IF NOT EXISTS readings_resets ON ONLY ingest.readings (org_id, device_id, channel, read_at) WHERE reset`);
    const partitions: { name: string }[] = await runner.query(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = 'ingest.readings'::regclass
         AND NOT EXISTS (SELECT 1 FROM pg_inherits x JOIN pg_index p ON p.indexrelid = x.inhrelid
                         WHERE x.inhparent = 'ingest.readings_resets'::regclass AND p.indrelid = c.oid)
       ORDER BY 1`,
    );
    for (const { name } of partitions) {
      const [table, index] = [quoteIdentifier(name), quoteIdentifier(`${name}_resets`)];
      // An interrupted concurrent build leaves an invalid index behind, which IF NOT EXISTS would keep: start afresh.
      await runner.query(`DROP INDEX CONCURRENTLY IF EXISTS ingest.${index}`);
      await runner.query(`CREATE INDEX CONCURRENTLY ${index} ON ingest.${table} (org_id, device_id, channel, read_at) WHERE reset`);
      await runner.query(`ALTER INDEX ingest.readings_resets ATTACH PARTITION ingest.${index}`);
    }
  }

  async down(runner: QueryRunner) {
    await runner.query(`DROP INDEX IF EXISTS ingest.readings_resets`);
  }
}
