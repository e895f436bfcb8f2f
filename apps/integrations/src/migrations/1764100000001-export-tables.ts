import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Batch exports (docs/exports.md): the integrations, their runs (one row per
 * local day of a run, so each day is exported, retried and finished on its
 * own), the data files written, the days exported with the snapshot each was
 * read under (restatement compares later changes with it), and the outbox of
 * export.succeeded / export.failed events.
 */
export class ExportTables1764100000001 implements MigrationInterface {
  name = 'ExportTables1764100000001';

  async up(runner: QueryRunner) {
    await runner.query(`
      CREATE TABLE integrations.export_integrations (
        id uuid PRIMARY KEY,
        org_id text COLLATE "C" NOT NULL,
        namespace text NOT NULL,
        storage_type text NOT NULL,
        bucket text NOT NULL,
        prefix text NOT NULL,
        format text NOT NULL,
        time_zone text NOT NULL,
        schedule_at text NOT NULL,
        status text NOT NULL CHECK (status IN ('active', 'paused')),
        next_run_at timestamptz NOT NULL,
        last_scheduled_date date,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`CREATE INDEX export_integrations_org ON integrations.export_integrations (org_id, created_at)`);
    await runner.query(`CREATE INDEX export_integrations_due ON integrations.export_integrations (next_run_at) WHERE status = 'active'`);
    await runner.query(`
      CREATE TABLE integrations.export_runs (
        id uuid PRIMARY KEY,
        integration_id uuid NOT NULL REFERENCES integrations.export_integrations (id) ON DELETE CASCADE,
        org_id text COLLATE "C" NOT NULL,
        from_date date NOT NULL,
        to_date date NOT NULL,
        trigger text NOT NULL CHECK (trigger IN ('manual', 'schedule', 'restatement')),
        status text NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        started_at timestamptz,
        finished_at timestamptz,
        error_code text,
        error_message text
      )`);
    await runner.query(`CREATE INDEX export_runs_newest ON integrations.export_runs (integration_id, created_at DESC)`);
    await runner.query(`CREATE INDEX export_runs_open ON integrations.export_runs (status) WHERE status IN ('queued', 'running')`);
    await runner.query(`
      CREATE TABLE integrations.export_run_days (
        run_id uuid NOT NULL REFERENCES integrations.export_runs (id) ON DELETE CASCADE,
        date date NOT NULL,
        status text NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        error_code text,
        error_message text,
        PRIMARY KEY (run_id, date)
      )`);
    await runner.query(`
      CREATE TABLE integrations.export_files (
        run_id uuid NOT NULL REFERENCES integrations.export_runs (id) ON DELETE CASCADE,
        date date NOT NULL,
        key text NOT NULL,
        rows bigint NOT NULL,
        bytes bigint NOT NULL,
        sha256 text NOT NULL,
        PRIMARY KEY (run_id, date)
      )`);
    await runner.query(`
      CREATE TABLE integrations.export_days (
        integration_id uuid NOT NULL REFERENCES integrations.export_integrations (id) ON DELETE CASCADE,
        date date NOT NULL,
        org_id text COLLATE "C" NOT NULL,
        day_start timestamptz NOT NULL,
        day_end timestamptz NOT NULL,
        snapshot pg_snapshot NOT NULL,
        run_id uuid NOT NULL,
        sha256 text NOT NULL,
        exported_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (integration_id, date)
      )`);
    await runner.query(`CREATE INDEX export_days_org ON integrations.export_days (org_id, date)`);
    await runner.query(`
      CREATE TABLE integrations.export_outbox (
        seq bigserial PRIMARY KEY,
        event_id uuid NOT NULL UNIQUE,
        subject text NOT NULL,
        payload jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        published_at timestamptz
      )`);
    await runner.query(`CREATE INDEX export_outbox_pending ON integrations.export_outbox (seq) WHERE published_at IS NULL`);
  }

  async down(runner: QueryRunner) {
    await runner.query(
      `DROP TABLE integrations.export_outbox, integrations.export_days, integrations.export_files, integrations.export_run_days, integrations.export_runs, integrations.export_integrations`,
    );
  }
}
