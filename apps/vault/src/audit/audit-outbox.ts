import { randomUUID } from 'node:crypto';
import { vaultAuditEvent, vaultAuditSubject, type VaultAuditEvent, type VaultAuditType } from '@meter/contracts';
import type { Sql } from '../keys/sql';

type AuditFacts = Omit<VaultAuditEvent, 'event_id' | 'occurred_at' | 'type' | 'entry_id' | 'namespace' | 'entry_type' | 'version' | 'root_key_id'> &
  Partial<Pick<VaultAuditEvent, 'entry_id' | 'namespace' | 'entry_type' | 'version' | 'root_key_id'>>;

/**
 * Records an audit event in the same transaction as the change it
 * describes; the relay publishes it afterwards, so a crash loses nothing.
 * The schema admits metadata only: there is no field a secret could go in.
 */
export async function appendAudit(sql: Sql, type: VaultAuditType, facts: AuditFacts): Promise<VaultAuditEvent> {
  const event = vaultAuditEvent.parse({
    event_id: randomUUID(),
    type,
    entry_id: null,
    namespace: null,
    entry_type: null,
    version: null,
    root_key_id: null,
    ...facts,
    occurred_at: new Date().toISOString(),
  });
  await sql.query(`INSERT INTO vault.audit_outbox (event_id, subject, payload) VALUES ($1, $2, $3)`, [
    event.event_id,
    vaultAuditSubject(type),
    JSON.stringify(event),
  ]);
  return event;
}
