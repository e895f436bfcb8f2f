import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { credentialEvent, credentialSecretAad, platformStreams } from '@meter/contracts';
import { associatedData, loadKeyRing, openText } from '@meter/crypto';
import { connectNats } from '@meter/messaging';
import { eventually, isolatedInfra, type IsolatedInfra, type PlatformProcess } from '@meter/testing';
import type { DataSource } from 'typeorm';
import { deactivateAdmin } from '@meter/auth';
import { authDataSource, call, databaseDump, login, newOrg, secretForms, startAuth, streamMessages } from './auth-support';

const SCOPE = 'meter:consumption:read';

describe('API credentials on the built auth process', () => {
  let infra: IsolatedInfra;
  let db: DataSource;
  let auth: { process: PlatformProcess; base: string };
  let nc: NatsConnection;
  let tokenA: string;
  let tokenB: string;
  let orgA: Awaited<ReturnType<typeof newOrg>>;
  const secrets: string[] = [];
  const received: { type: string; credential_id: string; at: number }[] = [];

  beforeAll(async () => {
    infra = await isolatedInfra();
    db = await authDataSource({ DATABASE_URL: infra.databaseUrl }, 'auth-test');
    auth = await startAuth(infra, { LOG_LEVEL: 'debug' });
    orgA = await newOrg(db);
    const orgB = await newOrg(db);
    tokenA = await login(auth.base, orgA.email, orgA.password);
    tokenB = await login(auth.base, orgB.email, orgB.password);
    // A subscriber of the credential events, like the gateway.
    nc = await connectNats(infra.natsUrl, 'test-subscriber');
    const consumer = await jetstream(nc).consumers.get(platformStreams(infra.bus).authEvents.name, {
      filter_subjects: infra.bus.subject('auth.events.credential.>'),
    });
    const messages = await consumer.consume();
    void (async () => {
      for await (const m of messages) {
        const event = credentialEvent.parse(m.json());
        received.push({ type: event.type, credential_id: event.payload.credential_id, at: Date.now() });
      }
    })();
  });

  afterAll(async () => {
    await nc?.close();
    await auth?.process.stop();
    await db?.destroy();
    await infra?.cleanup();
  });

  const create = (body: unknown, token = tokenA) => call(auth.base, 'POST', '/org-api-credentials', { token, body });

  it('lists the scopes the organization may use', async () => {
    const response = await call(auth.base, 'GET', '/org-api-credentials/available-scopes', { token: tokenA });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ scopes: [SCOPE] });
  });

  it('creates a secret credential, shows the secret once, and a subscriber sees it within a second', async () => {
    const response = await create({ name: 'billing export', type: 'secret', scopes: [SCOPE] });
    const answeredAt = Date.now();
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^cred_[A-Za-z0-9_-]{22}$/),
      name: 'billing export',
      access_key: expect.stringMatching(/^sk_live_[A-Za-z0-9_-]{32}$/),
      secret_key: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      type: 'secret',
      scopes: [SCOPE],
      allowed_cidrs: [],
      allowed_origins: [],
      device_ids: null,
      expires_at: null,
      status: 'active',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      revoked_at: null,
      last_used_at: null,
    });
    expect(Buffer.from(response.body.secret_key, 'base64url')).toHaveLength(32);
    secrets.push(response.body.secret_key);
    const seen = await eventually(
      async () => received.find((e) => e.type === 'credential.created' && e.credential_id === response.body.id) ?? false,
      5000,
      'credential.created on the stream',
    );
    expect(seen.at - answeredAt).toBeLessThan(1000);

    const listed = await call(auth.base, 'GET', '/org-api-credentials', { token: tokenA });
    expect(listed.status).toBe(200);
    const entry = listed.body.credentials.find((c: { id: string }) => c.id === response.body.id);
    expect(entry).toEqual({
      id: response.body.id,
      name: 'billing export',
      type: 'secret',
      access_key: response.body.access_key,
      scopes: [SCOPE],
      allowed_cidrs: [],
      allowed_origins: [],
      device_ids: null,
      expires_at: null,
      status: 'active',
      created_at: response.body.created_at,
      revoked_at: null,
      last_used_at: null,
    });
    expect(JSON.stringify(listed.body)).not.toContain(response.body.secret_key);
  });

  it('seals the secret in the event so a holder of the key ring (the gateway) can open it, bound to org and id', async () => {
    const response = await create({ name: 'sealed', type: 'secret', scopes: [SCOPE] });
    secrets.push(response.body.secret_key);
    const [row] = (await db.query(`SELECT payload FROM auth.events WHERE aggregate_id = $1 AND type = 'credential.created'`, [response.body.id])) as {
      payload: { sealed_secret: string };
    }[];
    const ring = await loadKeyRing({
      name: 'CREDENTIAL_KEYRING',
      envValue: undefined,
      production: false,
      dataDir: `.data/test-${infra.busPrefix}/keys`,
      log: { warn: () => undefined },
    });
    expect(openText(ring, row.payload.sealed_secret, associatedData(credentialSecretAad(orgA.orgId, response.body.id)))).toBe(response.body.secret_key);
    expect(() => openText(ring, row.payload.sealed_secret, associatedData(credentialSecretAad(orgA.orgId, 'cred_other')))).toThrow();
  });

  it('creates a public credential without a secret', async () => {
    const response = await create({ name: 'dashboard widget', type: 'public', scopes: [SCOPE] });
    expect(response.status).toBe(201);
    expect(response.body.access_key).toMatch(/^pk_live_/);
    expect(response.body.secret_key).toBeNull();
    const [row] = (await db.query('SELECT sealed_secret FROM auth.credentials WHERE id = $1', [response.body.id])) as { sealed_secret: null }[];
    expect(row.sealed_secret).toBeNull();
  });

  it('rejects bad creation bodies naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ type: 'secret', scopes: [SCOPE] }, 'name'],
      [{ name: 'x', scopes: [SCOPE] }, 'type'],
      [{ name: 'x', type: 'secret' }, 'scopes'],
      [{ name: 'x', type: 'private', scopes: [SCOPE] }, 'type'],
      [{ name: 7, type: 'secret', scopes: [SCOPE] }, 'name'],
      [{ name: 'x', type: 'secret', scopes: SCOPE }, 'scopes'],
      [{ name: 'x', type: 'secret', scopes: [] }, 'scopes'],
      [{ name: 'x', type: 'secret', scopes: ['meter:admin'] }, 'scopes[0]'],
      [{ name: 'x', type: 'secret', scopes: [SCOPE, 42] }, 'scopes[1]'],
      [{ name: 'x', type: 'secret', scopes: [SCOPE, SCOPE] }, 'scopes[1]'],
      [{ name: 'x', type: 'secret', scopes: [SCOPE], org_id: 'other' }, 'org_id'],
      ['"just a string"', 'body'],
    ];
    for (const [body, field] of cases) {
      const response = await create(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(response.body.code).toBe('validation_failed');
      expect(
        response.body.errors.map((e: { field: string }) => e.field),
        JSON.stringify(body),
      ).toContain(field);
    }
    const broken = await create('{"name": "x", ');
    expect(broken.status).toBe(400);
    expect(broken.body.errors).toEqual([{ field: 'body', message: expect.any(String) }]);
    const huge = await create({ name: 'x'.repeat(65 * 1024), type: 'secret', scopes: [SCOPE] });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe('payload_too_large');
  });

  it('sets the allow-list (IPv4 and IPv6, canonical) and rejects bad ranges naming them', async () => {
    const { body: created } = await create({ name: 'cidr', type: 'secret', scopes: [SCOPE] });
    secrets.push(created.secret_key);
    const path = `/org-api-credentials/${created.id}`;
    const ok = await call(auth.base, 'PATCH', path, { token: tokenA, body: { allowed_cidrs: ['10.0.0.0/8', '2001:DB8::/32', '192.0.2.7'] } });
    expect(ok.status).toBe(200);
    expect(ok.body.allowed_cidrs).toEqual(['10.0.0.0/8', '2001:db8::/32', '192.0.2.7/32']);
    expect((await call(auth.base, 'GET', path, { token: tokenA })).body.allowed_cidrs).toEqual(ok.body.allowed_cidrs);
    await eventually(async () => received.some((e) => e.type === 'credential.cidrs_changed' && e.credential_id === created.id), 5000, 'cidrs_changed');

    const bad = await call(auth.base, 'PATCH', path, { token: tokenA, body: { allowed_cidrs: ['10.0.0.0/8', '10.0.0.0/33', 'fe80::1/64', 'nope'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(['allowed_cidrs[1]', 'allowed_cidrs[2]', 'allowed_cidrs[3]']);
    for (const body of [{}, { allowed_cidrs: '10.0.0.0/8' }, { allowed_cidrs: [], nickname: 'x' }]) {
      const response = await call(auth.base, 'PATCH', path, { token: tokenA, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    const cleared = await call(auth.base, 'PATCH', path, { token: tokenA, body: { allowed_cidrs: [] } });
    expect(cleared.body.allowed_cidrs).toEqual([]);
  });

  it('serialises concurrent changes of one credential: every change is one event with the next version', async () => {
    const { body: created } = await create({ name: 'busy', type: 'secret', scopes: [SCOPE] });
    secrets.push(created.secret_key);
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call(auth.base, 'PATCH', `/org-api-credentials/${created.id}`, { token: tokenA, body: { allowed_cidrs: [`10.0.${i}.0/24`] } }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(8).fill(200));
    const versions = ((await db.query('SELECT version FROM auth.events WHERE aggregate_id = $1 ORDER BY version', [created.id])) as { version: number }[]).map(
      (r) => r.version,
    );
    expect(versions).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const [row] = (await db.query('SELECT version, allowed_cidrs FROM auth.credentials WHERE id = $1', [created.id])) as {
      version: number;
      allowed_cidrs: string[];
    }[];
    expect(row.version).toBe(9);
    const [last] = (await db.query(`SELECT payload FROM auth.events WHERE aggregate_id = $1 AND version = 9`, [created.id])) as {
      payload: { allowed_cidrs: string[] };
    }[];
    expect(row.allowed_cidrs).toEqual(last.payload.allowed_cidrs);
  });

  it('revokes (204, idempotent); a subscriber sees it within a second; a revoked credential cannot change', async () => {
    const { body: created } = await create({ name: 'to revoke', type: 'secret', scopes: [SCOPE] });
    secrets.push(created.secret_key);
    const response = await call(auth.base, 'DELETE', `/org-api-credentials/${created.id}`, { token: tokenA });
    const answeredAt = Date.now();
    expect(response.status).toBe(204);
    const seen = await eventually(
      async () => received.find((e) => e.type === 'credential.revoked' && e.credential_id === created.id) ?? false,
      5000,
      'credential.revoked on the stream',
    );
    expect(seen.at - answeredAt).toBeLessThan(1000);
    expect((await call(auth.base, 'DELETE', `/org-api-credentials/${created.id}`, { token: tokenA })).status).toBe(204);
    const got = await call(auth.base, 'GET', `/org-api-credentials/${created.id}`, { token: tokenA });
    expect(got.body).toMatchObject({ status: 'revoked', revoked_at: expect.any(String) });
    const patched = await call(auth.base, 'PATCH', `/org-api-credentials/${created.id}`, { token: tokenA, body: { allowed_cidrs: [] } });
    expect(patched.status).toBe(409);
    const [row] = (await db.query('SELECT sealed_secret FROM auth.credentials WHERE id = $1', [created.id])) as { sealed_secret: null }[];
    expect(row.sealed_secret).toBeNull();
    expect(received.filter((e) => e.type === 'credential.revoked' && e.credential_id === created.id)).toHaveLength(1);
  });

  it("answers another organization's credential with 404 on every route, and never lists it", async () => {
    const { body: created } = await create({ name: 'private to A', type: 'secret', scopes: [SCOPE] });
    secrets.push(created.secret_key);
    const path = `/org-api-credentials/${created.id}`;
    for (const [method, body] of [['GET'], ['PATCH', { allowed_cidrs: [] }], ['DELETE']] as const) {
      const response = await call(auth.base, method, path, { token: tokenB, body });
      expect(response.status, method).toBe(404);
      expect(response.body.code).toBe('not_found');
    }
    expect((await call(auth.base, 'GET', '/org-api-credentials', { token: tokenB })).body.credentials).toEqual([]);
    expect((await call(auth.base, 'GET', path, { token: tokenA })).body.status).toBe('active');
    expect((await call(auth.base, 'GET', '/org-api-credentials/cred_nope', { token: tokenA })).status).toBe(404);
  });

  it('requires a session on every route, and an active admin', async () => {
    for (const [method, path] of [
      ['GET', '/org-api-credentials/available-scopes'],
      ['GET', '/org-api-credentials'],
      ['POST', '/org-api-credentials'],
      ['PATCH', '/org-api-credentials/cred_x'],
      ['DELETE', '/org-api-credentials/cred_x'],
    ]) {
      expect((await call(auth.base, method, path)).status, `${method} ${path}`).toBe(401);
    }
    const org = await newOrg(db);
    const token = await login(auth.base, org.email, org.password);
    expect((await create({ name: 'ok', type: 'public', scopes: [SCOPE] }, token)).status).toBe(201);
    await deactivateAdmin(db, org.adminId);
    const refused = await create({ name: 'no', type: 'secret', scopes: [SCOPE] }, token);
    expect(refused.status).toBe(401);
    expect((await call(auth.base, 'POST', '/login', { body: { email: org.email, password: org.password } })).status).toBe(401);
  });

  it('keeps every secret out of the database, the event stream and the logs', async () => {
    expect(secrets.length).toBeGreaterThanOrEqual(4);
    await eventually(
      async () => Number((await db.query('SELECT count(*) AS n FROM auth.events WHERE published_at IS NULL'))[0].n) === 0,
      5000,
      'all published',
    );
    const dump = await databaseDump(db, infra.databaseUrl);
    const stream = await streamMessages(infra.natsUrl, platformStreams(infra.bus).authEvents.name);
    expect(stream.length).toBeGreaterThan(10);
    expect(dump).toContain('credential.created');
    expect(dump).toMatch(/"sealed_secret":"v1\.dev-\d{8}-[0-9a-f]{8}\./);
    const streamText = stream.map((m) => `${m.subject}\n${m.headers}\n${m.data}`).join('\n');
    const logs = auth.process.log();
    expect(logs).toContain('request completed');
    for (const secret of secrets) {
      for (const form of secretForms(secret)) {
        expect(dump.includes(form), 'database').toBe(false);
        expect(streamText.includes(form), 'stream').toBe(false);
        expect(logs.includes(form), 'logs').toBe(false);
      }
    }
    // Every stream message carries its event id as Nats-Msg-Id.
    for (const m of stream) expect(m.msgId).toBe(JSON.parse(m.data).event_id);
  });
});
