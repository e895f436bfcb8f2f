import { SubjectOutboxRelay } from '@meter/messaging';
import { ADVISORY_LOCKS } from '@meter/persistence';

/**
 * Publishes committed audit events from the outbox to VAULT_AUDIT, in
 * order, with `Nats-Msg-Id` = event id so a re-publish after a crash is
 * dropped by the stream. An audit event waiting more than 30 s for the bus
 * makes /readyz report `vault-audit` degraded; the vault keeps serving.
 */
export class AuditRelay extends SubjectOutboxRelay({ table: 'vault.audit_outbox', name: 'vault-audit', lockId: ADVISORY_LOCKS.vaultAuditOutbox }) {}
