import { describe, expect, it } from 'vitest';
import { authEvent } from '@meter/contracts';
import { newEvent } from './new-event';

describe('newEvent', () => {
  it('builds a contract-valid envelope with a fresh id', () => {
    const at = new Date('2026-01-02T03:04:05.678Z');
    const event = newEvent(
      'credential.revoked',
      { aggregateId: 'cred_1', orgId: 'org_1', version: 2 },
      {
        credential_id: 'cred_1',
        access_key: 'sk_live_x',
        revoked_at: at.toISOString(),
      },
      at,
    );
    expect(authEvent.parse(event)).toEqual(event);
    expect(event).toMatchObject({ type: 'credential.revoked', aggregate_id: 'cred_1', org_id: 'org_1', version: 2, occurred_at: at.toISOString() });
    expect(event.event_id).not.toBe(newEvent('admin.created', { aggregateId: 'a', orgId: 'o', version: 1 }, { admin_id: 'a', email: 'a@b.c' }).event_id);
  });

  it('refuses what the contract refuses (an organization id with a dot, version 0)', () => {
    expect(() => newEvent('admin.created', { aggregateId: 'a', orgId: 'o.1', version: 1 }, { admin_id: 'a', email: 'a@b.c' })).toThrow();
    expect(() => newEvent('admin.created', { aggregateId: 'a', orgId: 'o', version: 0 }, { admin_id: 'a', email: 'a@b.c' })).toThrow();
  });
});
