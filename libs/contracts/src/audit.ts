/**
 * What the management API's audit log says happened (docs/management-api.md,
 * "Audit log"; auth writes it), `<what>.<verb>`, listed as they are.
 */
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
