import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The change log is read by position now (docs/exports.md, "Restatement"):
 * each reader takes the changes its last position (a snapshot) did not see,
 * found by transaction id, and keeps what it needs in its own schema. The
 * index by organization and span served the integrations' queries on this
 * table, which they no longer make. Built concurrently: ingest inserts into
 * the table with every batch.
 */
export class ReadingChangesByTransaction1764400000000 implements MigrationInterface {
  name = 'ReadingChangesByTransaction1764400000000';
  // CREATE INDEX CONCURRENTLY cannot run in a transaction.
  transaction = false as const;

  async up(runner: QueryRunner) {
    // An interrupted concurrent build leaves an invalid index behind, which IF NOT EXISTS would keep: start afresh.
    await runner.query(`DROP INDEX CONCURRENTLY IF EXISTS ingest.reading_changes_xid`);
    await runner.query(`CREATE INDEX CONCURRENTLY reading_changes_xid ON ingest.reading_changes (xid)`);
    await runner.query(`DROP INDEX CONCURRENTLY IF EXISTS ingest.reading_changes_org_span`);
  }

  async down(runner: QueryRunner) {
    await runner.query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS reading_changes_org_span ON ingest.reading_changes (org_id, span_end)`);
    await runner.query(`DROP INDEX CONCURRENTLY IF EXISTS ingest.reading_changes_xid`);
  }
}
