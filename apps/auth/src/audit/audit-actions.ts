import type { AUDIT_ACTIONS, AuthEvent } from '@meter/contracts';

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** One line of the audit log before it is stored. Metadata only: ids, names, types; never a secret. */
export interface AuditEntryInput {
  orgId: string;
  occurredAt: Date;
  action: AuditAction;
  /** The admin who acted; null when the platform did (the CLI, a migration). */
  actorId: string | null;
  targetId: string | null;
  /** A short, non-secret description of the target (a credential's name, a vault entry's namespace/type). */
  detail: string | null;
}

/**
 * The audit line an auth event makes, or null for the events an admin did not cause
 * (a password rehash at sign-in, a key rotation's reseal; the end of a deactivated
 * admin's sessions, which `admin.deactivated` already records). `actorId` names the
 * admin when the event itself does not.
 */
export function auditEntryOfEvent(
  event: Pick<AuthEvent, 'type' | 'org_id' | 'aggregate_id' | 'occurred_at' | 'payload'>,
  actorId: string | null = null,
): AuditEntryInput | null {
  const base = { orgId: event.org_id, occurredAt: new Date(event.occurred_at), actorId, detail: null };
  const e = event as AuthEvent;
  switch (e.type) {
    case 'organization.created':
      return { ...base, action: 'organization.created', targetId: e.aggregate_id, detail: e.payload.name };
    case 'admin.created':
      return { ...base, action: 'admin.created', targetId: e.payload.admin_id, detail: e.payload.email };
    case 'admin.deactivated':
      return { ...base, action: 'admin.deactivated', targetId: e.payload.admin_id };
    case 'session.started':
      return { ...base, action: 'session.signed_in', actorId: e.payload.admin_id, targetId: e.payload.session_id };
    case 'session.ended':
      return e.payload.reason === 'logout' ? { ...base, action: 'session.signed_out', actorId: e.payload.admin_id, targetId: e.payload.session_id } : null;
    case 'credential.created':
      return { ...base, action: 'credential.created', targetId: e.payload.credential_id, detail: e.payload.name };
    case 'credential.revoked':
      return { ...base, action: 'credential.revoked', targetId: e.payload.credential_id };
    case 'credential.cidrs_changed':
      return { ...base, action: 'credential.changed', targetId: e.payload.credential_id, detail: 'allowed CIDRs' };
    case 'credential.settings_changed':
      return { ...base, action: 'credential.changed', targetId: e.payload.credential_id, detail: e.payload.name };
    case 'collector_credential.created':
      return { ...base, action: 'collector_credential.created', targetId: e.payload.credential_id, detail: e.payload.name };
    case 'collector_credential.revoked':
      return { ...base, action: 'collector_credential.revoked', targetId: e.payload.credential_id };
    case 'admin.password_rehashed':
    case 'credential.secret_resealed':
      return null;
  }
}
