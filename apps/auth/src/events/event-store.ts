import type { AuthEvent } from '@meter/contracts';
import { ProblemException } from '@meter/http';
import type { EntityManager } from 'typeorm';
import { auditEntryOfEvent } from '../audit/audit-actions';
import { insertAuditEntries } from '../audit/audit-store';

/** The channel on which a commit that appended events wakes the outbox relay. */
export const EVENTS_CHANNEL = 'auth_events';

/** Someone else changed the aggregate between our read and our write. */
export class ConcurrencyConflict extends ProblemException {
  constructor(aggregateId: string) {
    super(409, 'concurrent_modification', `${aggregateId} was changed by another request; retry`);
  }
}

/**
 * Appends events inside the caller's transaction, so they commit (or not)
 * together with the state change they describe, and with the audit log's
 * lines for them (`actorId`: the admin who acted, when the events do not
 * name one). `(aggregate_id, version)` is unique: a second writer of the
 * same version fails here.
 */
export async function appendEvents(manager: EntityManager, events: readonly AuthEvent[], actorId: string | null = null): Promise<void> {
  for (const event of events) {
    try {
      await manager.query(
        `INSERT INTO auth.events (event_id, type, aggregate_id, org_id, version, occurred_at, payload)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [event.event_id, event.type, event.aggregate_id, event.org_id, event.version, event.occurred_at, JSON.stringify(event.payload)],
      );
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw new ConcurrencyConflict(event.aggregate_id);
      throw error;
    }
  }
  const audited = events.flatMap((event) => {
    const entry = auditEntryOfEvent(event, actorId);
    return entry ? [{ entry, eventId: event.event_id }] : [];
  });
  await insertAuditEntries(
    manager,
    audited.map((a) => a.entry),
    audited.map((a) => a.eventId),
  );
  // Delivered at commit only, and never for a rolled-back transaction.
  await manager.query(`SELECT pg_notify($1, '')`, [EVENTS_CHANNEL]);
}

export interface StoredEventRow {
  seq: string;
  event_id: string;
  type: string;
  aggregate_id: string;
  org_id: string;
  version: number;
  occurred_at: Date;
  payload: unknown;
}

/** The latest event of each credential event type, oldest first: folded in order, they give the credential's current state. */
export async function latestCredentialEvents(manager: Pick<EntityManager, 'query'>, accessKey: string): Promise<StoredEventRow[]> {
  return manager.query(
    `SELECT seq, event_id, type, aggregate_id, org_id, version, occurred_at, payload FROM (
       SELECT DISTINCT ON (e.type) e.*
         FROM auth.credentials c JOIN auth.events e ON e.aggregate_id = c.id
        WHERE c.access_key = $1
          AND e.type IN ('credential.created', 'credential.revoked', 'credential.cidrs_changed', 'credential.settings_changed', 'credential.secret_resealed')
        ORDER BY e.type, e.version DESC
     ) latest ORDER BY version`,
    [accessKey],
  );
}

/** The envelope as it was appended (what the relay publishes). */
export function envelopeOf(row: StoredEventRow) {
  return {
    event_id: row.event_id,
    type: row.type,
    aggregate_id: row.aggregate_id,
    org_id: row.org_id,
    version: row.version,
    occurred_at: row.occurred_at.toISOString(),
    payload: row.payload,
  };
}

/**
 * Checks that the row updated by a versioned write existed at the version
 * read; TypeORM's raw UPDATE result is `[rows, affectedCount]`.
 */
export function assertUpdated(result: unknown, aggregateId: string): void {
  const affected = Array.isArray(result) ? Number(result[1]) : 0;
  if (affected !== 1) throw new ConcurrencyConflict(aggregateId);
}
