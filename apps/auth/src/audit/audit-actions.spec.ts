import { describe, expect, it } from 'vitest';
import { auditEntryOfEvent } from './audit-actions';

const AT = '2026-11-21T09:40:12.511Z';
const event = (type: string, payload: Record<string, unknown>) =>
  ({ type, org_id: 'org_a', aggregate_id: 'agg_1', occurred_at: AT, payload }) as unknown as Parameters<typeof auditEntryOfEvent>[0];

describe('audit lines of auth events', () => {
  it('names the admin of a sign-in from the event, and the actor given for a credential', () => {
    expect(auditEntryOfEvent(event('session.started', { session_id: 'ses_1', admin_id: 'adm_1', expires_at: AT }))).toEqual({
      orgId: 'org_a',
      occurredAt: new Date(AT),
      action: 'session.signed_in',
      actorId: 'adm_1',
      targetId: 'ses_1',
      detail: null,
    });
    const created = auditEntryOfEvent(
      event('credential.created', { credential_id: 'cred_1', name: 'Billing', access_key: 'sk_live_x', sealed_secret: 'sealed:abc', scopes: [] }),
      'adm_2',
    );
    expect(created).toMatchObject({ action: 'credential.created', actorId: 'adm_2', targetId: 'cred_1', detail: 'Billing' });
    // Nothing of the event but ids and the name: not the sealed secret, not the access key.
    expect(JSON.stringify(created)).not.toMatch(/sealed|sk_live/);
  });

  it('maps changes and revocations, and skips what no admin did', () => {
    expect(auditEntryOfEvent(event('credential.cidrs_changed', { credential_id: 'cred_1', access_key: 'k', allowed_cidrs: [] }))?.action).toBe(
      'credential.changed',
    );
    expect(auditEntryOfEvent(event('credential.revoked', { credential_id: 'cred_1', access_key: 'k', revoked_at: AT }))?.action).toBe('credential.revoked');
    expect(auditEntryOfEvent(event('session.ended', { session_id: 's', admin_id: 'a', reason: 'logout' }))?.action).toBe('session.signed_out');
    expect(auditEntryOfEvent(event('session.ended', { session_id: 's', admin_id: 'a', reason: 'admin_deactivated' }))).toBeNull();
    expect(auditEntryOfEvent(event('admin.password_rehashed', { admin_id: 'a' }))).toBeNull();
    expect(auditEntryOfEvent(event('credential.secret_resealed', { credential_id: 'c', access_key: 'k', sealed_secret: 's' }))).toBeNull();
    expect(auditEntryOfEvent(event('organization.created', { name: 'Riverside', scopes: [] }))).toMatchObject({ actorId: null, detail: 'Riverside' });
  });
});
