import type { EntityManager } from 'typeorm';
import type { AuditEntryInput } from './audit-actions';

type Queryable = Pick<EntityManager, 'query'>;

/**
 * `auth.audit_log`: auth's own record of who did what in an organization. Rows are only
 * ever added; every read is scoped to one organization and pages newest first by `seq`.
 */
export async function insertAuditEntries(db: Queryable, entries: readonly AuditEntryInput[], eventIds: readonly (string | null)[] = []): Promise<void> {
  if (entries.length === 0) return;
  await db.query(
    `INSERT INTO auth.audit_log (org_id, occurred_at, action, actor_id, target_id, detail, event_id)
     SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::text[], $4::text[], $5::text[], $6::text[], $7::uuid[])
     ON CONFLICT (event_id) DO NOTHING`,
    [
      entries.map((e) => e.orgId),
      entries.map((e) => e.occurredAt.toISOString()),
      entries.map((e) => e.action),
      entries.map((e) => e.actorId),
      entries.map((e) => e.targetId),
      entries.map((e) => e.detail),
      entries.map((_, i) => eventIds[i] ?? null),
    ],
  );
}

export interface AuditRow {
  seq: string;
  occurred_at: Date;
  action: string;
  actor_id: string | null;
  actor_email: string | null;
  target_id: string | null;
  detail: string | null;
}

const COLUMNS = `l.seq::text AS seq, l.occurred_at, l.action, l.actor_id, a.email AS actor_email, l.target_id, l.detail
  FROM auth.audit_log l LEFT JOIN auth.admins a ON a.id = l.actor_id`;

/** One page of the organization's log, newest first, after `beforeSeq` (exclusive) when given; one row more tells whether more follow. */
export async function auditPage(
  db: Queryable,
  orgId: string,
  query: { beforeSeq?: bigint; limit: number; action?: string },
): Promise<{ rows: AuditRow[]; hasMore: boolean }> {
  const rows = (await db.query(
    `SELECT ${COLUMNS}
      WHERE l.org_id = $1 AND ($2::bigint IS NULL OR l.seq < $2) AND ($3::text IS NULL OR l.action = $3)
      ORDER BY l.seq DESC LIMIT $4`,
    [orgId, query.beforeSeq?.toString() ?? null, query.action ?? null, query.limit + 1],
  )) as AuditRow[];
  return { rows: rows.slice(0, query.limit), hasMore: rows.length > query.limit };
}

/** One entry of the organization's log, or undefined (also for another organization's). */
export async function auditEntry(db: Queryable, orgId: string, seq: bigint): Promise<AuditRow | undefined> {
  const [row] = (await db.query(`SELECT ${COLUMNS} WHERE l.org_id = $1 AND l.seq = $2`, [orgId, seq.toString()])) as AuditRow[];
  return row;
}
