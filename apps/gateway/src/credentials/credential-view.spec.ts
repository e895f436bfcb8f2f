import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { CredentialEvent } from '@meter/contracts';
import { CredentialView } from './credential-view';

const ORG = 'org_1';
const KEY = 'sk_live_abc';
const at = '2026-11-21T10:00:00.000Z';

function created(version = 1, overrides: Partial<Extract<CredentialEvent, { type: 'credential.created' }>['payload']> = {}): CredentialEvent {
  return {
    event_id: randomUUID(),
    type: 'credential.created',
    aggregate_id: 'cred_1',
    org_id: ORG,
    version,
    occurred_at: at,
    payload: {
      credential_id: 'cred_1',
      name: 'n',
      type: 'secret',
      access_key: KEY,
      scopes: ['meter:consumption:read'],
      allowed_cidrs: [],
      sealed_secret: 'sealed:s3cret',
      created_at: at,
      ...overrides,
    },
  };
}

const revoked = (version: number): CredentialEvent => ({
  event_id: randomUUID(),
  type: 'credential.revoked',
  aggregate_id: 'cred_1',
  org_id: ORG,
  version,
  occurred_at: at,
  payload: { credential_id: 'cred_1', access_key: KEY, revoked_at: at },
});

const cidrs = (version: number, allowed: string[]): CredentialEvent => ({
  event_id: randomUUID(),
  type: 'credential.cidrs_changed',
  aggregate_id: 'cred_1',
  org_id: ORG,
  version,
  occurred_at: at,
  payload: { credential_id: 'cred_1', access_key: KEY, allowed_cidrs: allowed },
});

const resealed = (version: number, sealed: string): CredentialEvent => ({
  event_id: randomUUID(),
  type: 'credential.secret_resealed',
  aggregate_id: 'cred_1',
  org_id: ORG,
  version,
  occurred_at: at,
  payload: { credential_id: 'cred_1', access_key: KEY, sealed_secret: sealed },
});

/** A stand-in opener: "sealed:<x>" opens to x for the right org and credential, anything else fails. */
const opener = (sealed: string, org: string, id: string) => {
  if (!sealed.startsWith('sealed:') || org !== ORG || id !== 'cred_1') throw new Error('authentication');
  return sealed.slice('sealed:'.length);
};

describe('CredentialView', () => {
  it('opens the secret of a created credential and finds it by access key', () => {
    const view = new CredentialView(opener);
    expect(view.apply(created())).toBe('applied');
    expect(view.find(KEY)).toMatchObject({ credentialId: 'cred_1', orgId: ORG, secretKey: 's3cret', status: 'active', type: 'secret' });
    expect(view.find('sk_live_other')).toBeUndefined();
  });

  it('revokes, forgetting the secret, and ignores redelivered or older events', () => {
    const view = new CredentialView(opener);
    view.apply(created());
    expect(view.apply(revoked(2))).toBe('applied');
    expect(view.find(KEY)).toMatchObject({ status: 'revoked', secretKey: undefined });
    expect(view.apply(created())).toBe('stale');
    expect(view.apply(revoked(2))).toBe('stale');
    expect(view.find(KEY)?.status).toBe('revoked');
    // Even with a higher version, a creation does not undo a revocation.
    expect(view.apply(created(5))).toBe('stale');
    expect(view.find(KEY)).toMatchObject({ status: 'revoked', secretKey: undefined });
  });

  it('replaces the allow-list and fails closed on a CIDR it cannot read', () => {
    const view = new CredentialView(opener);
    view.apply(created());
    view.apply(cidrs(2, ['10.0.0.0/8', '2001:db8::/32']));
    expect(view.find(KEY)).toMatchObject({ allowedCidrs: ['10.0.0.0/8', '2001:db8::/32'], cidrsInvalid: false });
    expect(view.find(KEY)?.allowedRanges).toHaveLength(2);
    view.apply(cidrs(3, ['not-a-cidr']));
    expect(view.find(KEY)?.cidrsInvalid).toBe(true);
    view.apply(cidrs(4, []));
    expect(view.find(KEY)).toMatchObject({ allowedRanges: [], cidrsInvalid: false });
  });

  it('keeps the known secret when a reseal cannot be opened, and takes a readable one', () => {
    const view = new CredentialView(opener);
    view.apply(created());
    expect(view.apply(resealed(2, 'garbage'))).toBe('secret-unreadable');
    expect(view.find(KEY)?.secretKey).toBe('s3cret');
    expect(view.apply(resealed(3, 'sealed:s3cret'))).toBe('applied');
    expect(view.find(KEY)).toMatchObject({ secretKey: 's3cret', version: 3 });
  });

  it('records a secret it cannot open as missing, and public credentials need none', () => {
    const view = new CredentialView(opener);
    expect(view.apply(created(1, { sealed_secret: 'tampered' }))).toBe('secret-unreadable');
    expect(view.find(KEY)?.secretKey).toBeUndefined();
    expect(view.apply(created(1, { access_key: 'pk_live_pub', type: 'public', sealed_secret: null }))).toBe('applied');
    expect(view.find('pk_live_pub')).toMatchObject({ type: 'public', secretKey: undefined });
  });

  it('ignores changes to a credential it never saw', () => {
    const view = new CredentialView(opener);
    expect(view.apply(revoked(2))).toBe('unknown-credential');
    expect(view.size).toBe(0);
  });
});
