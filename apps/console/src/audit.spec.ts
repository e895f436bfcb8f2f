import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS as SERVER_ACTIONS } from '@meter/contracts';
import { AUDIT_ACTIONS, auditActionLabel } from './audit';

describe('console audit log', () => {
  it('offers the server’s actions, in its order', () => {
    expect(AUDIT_ACTIONS).toEqual(SERVER_ACTIONS);
  });

  it('reads actions as words', () => {
    expect(auditActionLabel('credential.created')).toBe('credential created');
    expect(auditActionLabel('session.signed_in')).toBe('session signed in');
    expect(auditActionLabel('webhook_endpoint.secret_rotated')).toBe('webhook endpoint secret rotated');
  });
});
