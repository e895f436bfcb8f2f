/** The actions of the management API's audit log (@meter/contracts AUDIT_ACTIONS; audit.spec.ts keeps them equal). */
export const AUDIT_ACTIONS = [
  'organization.created',
  'admin.created',
  'admin.deactivated',
  'session.signed_in',
  'session.signed_out',
  'credential.created',
  'credential.changed',
  'credential.revoked',
  'collector_credential.created',
  'collector_credential.revoked',
  'vault_entry.written',
  'vault_entry.deleted',
  'integration.created',
  'integration.changed',
  'integration.deleted',
  'integration.run_queued',
  'webhook_endpoint.created',
  'webhook_endpoint.changed',
  'webhook_endpoint.secret_rotated',
  'webhook_endpoint.deleted',
] as const;

/** `credential.created` as people read it: `credential created`. */
export function auditActionLabel(action: string): string {
  return action.replace(/[._]/g, ' ');
}
