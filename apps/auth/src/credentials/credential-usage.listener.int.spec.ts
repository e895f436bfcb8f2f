import type { NatsConnection } from '@nats-io/nats-core';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BusNames, type CredentialUsageReport } from '@meter/contracts';
import { DatabaseOutage } from '@meter/persistence';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import { authDataSource, newOrg } from '@meter/testing/auth-org';
import { CredentialUsageListener } from './credential-usage.listener';

describe('CredentialUsageListener on the real auth tables', () => {
  let infra: IsolatedInfra;
  let db: DataSource;
  let listener: CredentialUsageListener;
  let orgA: string;
  let orgB: string;

  const bytes = (report: unknown) => new TextEncoder().encode(JSON.stringify(report));
  const lastUsed = async (id: string) =>
    ((await db.query('SELECT last_used_at FROM auth.credentials WHERE id = $1', [id])) as { last_used_at: Date | null }[])[0].last_used_at?.toISOString() ??
    null;
  const credential = async (id: string, orgId: string) =>
    db.query(
      `INSERT INTO auth.credentials (id, org_id, name, type, access_key, scopes, allowed_cidrs, sealed_secret, status, created_at, version)
       VALUES ($1, $2, 'c', 'public', $3, '{meter:consumption:read}', '{}', NULL, 'active', now(), 1)`,
      [id, orgId, `pk_live_${id}`],
    );
  const report = (usage: CredentialUsageReport['usage']) => listener.apply(bytes({ usage }));

  beforeAll(async () => {
    infra = await isolatedInfra();
    db = await authDataSource({ DATABASE_URL: infra.databaseUrl }, 'usage-test');
    orgA = (await newOrg(db, { fastHash: true })).orgId;
    orgB = (await newOrg(db, { fastHash: true })).orgId;
    await credential('cred_a', orgA);
    await credential('cred_b', orgB);
    // Only apply() is exercised here; the subscription is the e2e test's (gateway-auth).
    listener = new CredentialUsageListener(
      undefined as unknown as NatsConnection,
      new BusNames(''),
      db,
      new DatabaseOutage({ probe: () => db.query('SELECT 1'), log: { warn: () => undefined } }),
    );
  });

  afterAll(async () => {
    await db?.destroy();
    await infra?.cleanup();
  });

  it('sets last_used_at and only ever moves it forward', async () => {
    expect(await report([{ credential_id: 'cred_a', org_id: orgA, last_used_at: '2026-11-21T10:00:00.000Z' }])).toBe(1);
    expect(await lastUsed('cred_a')).toBe('2026-11-21T10:00:00.000Z');
    expect(await report([{ credential_id: 'cred_a', org_id: orgA, last_used_at: '2026-11-21T09:00:00.000Z' }])).toBe(0);
    expect(await lastUsed('cred_a')).toBe('2026-11-21T10:00:00.000Z');
    await report([{ credential_id: 'cred_a', org_id: orgA, last_used_at: '2026-11-21T11:30:00.000Z' }]);
    expect(await lastUsed('cred_a')).toBe('2026-11-21T11:30:00.000Z');
  });

  it("never touches another organization's credential", async () => {
    expect(await report([{ credential_id: 'cred_b', org_id: orgA, last_used_at: '2026-11-21T12:00:00.000Z' }])).toBe(0);
    expect(await lastUsed('cred_b')).toBeNull();
  });

  it('drops a malformed report without applying any of it', async () => {
    for (const bad of [
      'not json',
      { usage: [] },
      { usage: [{ credential_id: 'cred_b', org_id: orgB, last_used_at: 'yesterday' }] },
      { usage: [{ credential_id: 'cred_b', org_id: orgB, last_used_at: '2026-11-21T12:00:00.000Z', secret: 'x' }] },
    ]) {
      expect(await listener.apply(typeof bad === 'string' ? new TextEncoder().encode(bad) : bytes(bad))).toBe(0);
    }
    expect(await lastUsed('cred_b')).toBeNull();
  });
});
