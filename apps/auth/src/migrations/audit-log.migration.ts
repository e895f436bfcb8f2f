import type { MigrationInterface, QueryRunner } from 'typeorm';
import { auditEntryOfEvent } from '../audit/audit-actions';
import { insertAuditEntries } from '../audit/audit-store';

/**
 * The audit log of the management API (docs/management-api.md, "Audit log"), filled from
 * auth's own events as they are appended and from the changes auth forwards to the vault
 * and the integrations service. The events already stored are copied in, so sign-ins and
 * credentials from before the upgrade are in it too (their actor is unknown but for
 * sessions, whose events name the admin).
 */
export class AuditLog1765000000000 implements MigrationInterface {
  name = 'AuditLog1765000000000';

  async up(runner: QueryRunner) {
    await runner.query(`
      CREATE TABLE auth.audit_log (
        seq bigserial PRIMARY KEY,
        org_id text NOT NULL,
        occurred_at timestamptz NOT NULL,
        action text NOT NULL,
        actor_id text,
        target_id text,
        detail text,
        event_id uuid UNIQUE
      )`);
    await runner.query('CREATE INDEX audit_log_org ON auth.audit_log (org_id, seq DESC)');
    let after = '0';
    for (;;) {
      const rows = (await runner.query(
        // `e.seq`: a bare `seq` in ORDER BY would be the text output column, ordered as text.
        'SELECT e.seq::text AS seq, event_id, type, aggregate_id, org_id, occurred_at, payload FROM auth.events e WHERE e.seq > $1 ORDER BY e.seq LIMIT 1000',
        [after],
      )) as { seq: string; event_id: string; type: string; aggregate_id: string; org_id: string; occurred_at: Date; payload: unknown }[];
      if (rows.length === 0) break;
      after = rows[rows.length - 1].seq;
      const mapped = rows.flatMap((row) => {
        const entry = auditEntryOfEvent({ ...row, occurred_at: row.occurred_at.toISOString() } as Parameters<typeof auditEntryOfEvent>[0]);
        return entry ? [{ entry, eventId: row.event_id }] : [];
      });
      await insertAuditEntries(
        runner,
        mapped.map((m) => m.entry),
        mapped.map((m) => m.eventId),
      );
    }
  }

  async down(runner: QueryRunner) {
    await runner.query('DROP TABLE auth.audit_log');
  }
}
