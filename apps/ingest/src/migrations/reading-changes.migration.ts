import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The log of changed spans the batch exports restate from (docs/exports.md,
 * "Restatement"): each batch write records, per organization, the spans of
 * time whose stored intervals it changed, with the id of its transaction.
 * An exported day whose export snapshot does not see a change overlapping it
 * is exported again. (Readers take the log by position and ingest prunes
 * what they took: ReadingChangesByTransaction1764400000000.)
 */
export class ReadingChanges1764100000000 implements MigrationInterface {
  name = 'ReadingChanges1764100000000';

  async up(runner: QueryRunner) {
    await runner.query(`
      CREATE TABLE ingest.reading_changes (
        seq bigserial PRIMARY KEY,
        org_id text COLLATE "C" NOT NULL,
        span_start timestamptz NOT NULL,
        span_end timestamptz NOT NULL,
        xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
        changed_at timestamptz NOT NULL DEFAULT now(),
        CHECK (span_start <= span_end)
      )`);
    await runner.query(`CREATE INDEX reading_changes_org_span ON ingest.reading_changes (org_id, span_end)`);
  }

  async down(runner: QueryRunner) {
    await runner.query(`DROP TABLE ingest.reading_changes`);
  }
}
