import type { NatsConnection } from '@nats-io/nats-core';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BusNames } from '@meter/contracts';
import { DatabaseOutage } from '@meter/persistence';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import { authDataSource, newOrg } from '@meter/testing/auth-org';
import { appendEvents } from '../events/event-store';
import { newEvent } from '../events/new-event';
import { CredentialLookupResponder } from './credential-lookup.responder';

const bytes = (value: unknown) => new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value));

describe('CredentialLookupResponder.lookup', () => {
  let infra: IsolatedInfra;
  let db: DataSource;
  let responder: CredentialLookupResponder;
  let orgId: string;

  beforeAll(async () => {
    infra = await isolatedInfra();
    db = await authDataSource({ DATABASE_URL: infra.databaseUrl }, 'lookup-test');
    orgId = (await newOrg(db, { fastHash: true })).orgId;
    // Only lookup() is exercised here; the subscription is the e2e test's (credential-propagation).
    const outage = new DatabaseOutage({ probe: () => db.query('SELECT 1'), log: { warn: () => undefined } });
    responder = new CredentialLookupResponder(undefined as unknown as NatsConnection, new BusNames(''), db, outage);

    // A credential created, fenced twice and revoked: five events.
    const id = 'cred_lookuplookuplookuplook';
    const key = 'pk_live_lookup';
    await db.transaction(async (m) => {
      await m.query(
        `INSERT INTO auth.credentials (id, org_id, name, type, access_key, scopes, allowed_cidrs, sealed_secret, status, created_at, version)
         VALUES ($1, $2, 'c', 'public', $3, '{meter:consumption:read}', '{}', NULL, 'revoked', now(), 4)`,
        [id, orgId, key],
      );
      const target = (version: number) => ({ aggregateId: id, orgId, version });
      await appendEvents(m, [
        newEvent('credential.created', target(1), {
          credential_id: id,
          name: 'c',
          type: 'public',
          access_key: key,
          scopes: ['meter:consumption:read'],
          allowed_cidrs: [],
          sealed_secret: null,
          created_at: new Date().toISOString(),
        }),
        newEvent('credential.cidrs_changed', target(2), { credential_id: id, access_key: key, allowed_cidrs: ['192.0.2.0/24'] }),
        newEvent('credential.cidrs_changed', target(3), { credential_id: id, access_key: key, allowed_cidrs: ['198.51.100.0/24'] }),
        newEvent('credential.revoked', target(4), { credential_id: id, access_key: key, revoked_at: new Date().toISOString() }),
      ]);
    });
  });

  afterAll(async () => {
    await db?.destroy();
    await infra?.cleanup();
  });

  it("answers the latest event of each type, in version order, with the org's and credential's ids", async () => {
    const reply = await responder.lookup(bytes({ access_key: 'pk_live_lookup' }));
    expect(reply.status).toBe('found');
    const events = reply.status === 'found' ? reply.events : [];
    expect(events.map((e) => [e.type, e.version])).toEqual([
      ['credential.created', 1],
      ['credential.cidrs_changed', 3],
      ['credential.revoked', 4],
    ]);
    expect(events.every((e) => e.org_id === orgId && e.aggregate_id === 'cred_lookuplookuplookuplook')).toBe(true);
    expect(events[1].payload).toMatchObject({ allowed_cidrs: ['198.51.100.0/24'] });
  });

  it('answers unknown for a key it does not have and for a request that is not a lookup', async () => {
    expect(await responder.lookup(bytes({ access_key: 'pk_live_nobody' }))).toEqual({ status: 'unknown' });
    expect(await responder.lookup(bytes('{not json'))).toEqual({ status: 'unknown' });
    expect(await responder.lookup(bytes({ access_key: 'x', extra: 1 }))).toEqual({ status: 'unknown' });
  });
});
