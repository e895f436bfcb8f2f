import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The exports' own restatement state (docs/exports.md, "Restatement"): the
 * changes of the read model's change log that exported days may still need
 * (copied with their transaction ids, pruned once no export needs them),
 * and the position up to which the exports have taken ingest's log (a
 * pg_snapshot; ingest prunes behind it). The first take copies the whole log.
 */
export class ExportChanges1764400000001 implements MigrationInterface {
  name = 'ExportChanges1764400000001';

  async up(runner: QueryRunner) {
    await runner.query(`
      CREATE TABLE integrations.export_changes (
        seq bigserial PRIMARY KEY,
        org_id text COLLATE "C" NOT NULL,
        span_start timestamptz NOT NULL,
        span_end timestamptz NOT NULL,
        xid xid8 NOT NULL,
        changed_at timestamptz NOT NULL,
        CHECK (span_start <= span_end)
      )`);
    await runner.query(`CREATE INDEX export_changes_org_span ON integrations.export_changes (org_id, span_end)`);
    await runner.query(`
      CREATE TABLE integrations.reading_changes_position (
        reader text PRIMARY KEY,
        consumed pg_snapshot NOT NULL,
        consumed_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`INSERT INTO integrations.reading_changes_position (reader, consumed) VALUES ('exports', '1:1:')`);
  }

  async down(runner: QueryRunner) {
    await runner.query(`DROP TABLE integrations.reading_changes_position, integrations.export_changes`);
  }
}
