import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@meter/testing';
import { authDataSource, call, login, newOrg, startAuth } from './auth-support';
import { startConsumptionStack, type ConsumptionStack } from './consumption-stack';
import { rawRequest, signedRequest, type RawResponse } from './gateway-support';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * A credential's name, expiry, browser origins and devices (contract section
 * 13), set through the real management API and enforced by the real gateway
 * on devices stored by ingest.
 */
describe('credential limits through auth and the gateway', () => {
  let stack: ConsumptionStack;
  let db: DataSource;
  let auth: Awaited<ReturnType<typeof startAuth>>;
  let token: string;

  const WIDGET = 'https://widget.riverside.example';

  beforeAll(async () => {
    stack = await startConsumptionStack('credential-limits-e2e', [], {});
    db = await authDataSource({ DATABASE_URL: stack.infra.databaseUrl }, 'credential-limits-test');
    auth = await startAuth(stack.infra, { CREDENTIAL_KEYRING: stack.keys.env });
    const org = await newOrg(db, { fastHash: true });
    token = await login(auth.base, org.email, org.password);
    const at = new Date(Date.now() - 3600_000).toISOString();
    for (const id of [1, 2, 3]) {
      await stack.publish(org.orgId, 'devices', id, { name: `Meter ${id}`, time_zone: 'UTC' });
      await stack.publish(org.orgId, 'readings', id, [
        { read_at: at, value: 10 },
        { read_at: new Date().toISOString(), value: 11 },
      ]);
    }
    await stack.publish(org.orgId, 'alarms', 3, { code: 'TAMPER', state: 'raised', at });
    await stack.stored(6, { orgId: org.orgId, deviceId: 3, name: 'Meter 3' });
  });

  afterAll(async () => {
    await auth?.process.stop();
    await db?.destroy();
    await stack?.stop();
  });

  const create = async (body: Json) => {
    const created = await call(auth.base, 'POST', '/org-api-credentials', { token, body: { scopes: ['meter:consumption:read'], ...body } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body as Json;
  };
  const patch = (id: string, body: unknown) => call(auth.base, 'PATCH', `/org-api-credentials/${id}`, { token, body });
  const listed = async (id: string) => ((await call(auth.base, 'GET', '/org-api-credentials', { token })).body.credentials as Json[]).find((c) => c.id === id)!;
  const publicGet = (accessKey: string, target: string, headers: Record<string, string> = {}) =>
    rawRequest(stack.port, {
      method: 'GET',
      target,
      headers: { authorization: `SVC-HMAC access_key=${accessKey} signature=public timestamp=${Math.floor(Date.now() / 1000)}`, ...headers },
    });
  const publicPost = (accessKey: string, target: string, body: unknown) =>
    rawRequest(stack.port, {
      method: 'POST',
      target,
      body: JSON.stringify(body),
      headers: {
        authorization: `SVC-HMAC access_key=${accessKey} signature=public timestamp=${Math.floor(Date.now() / 1000)}`,
        'content-type': 'application/json',
      },
    });
  const admitted = (request: () => Promise<RawResponse>, status = 200) =>
    eventually(async () => (await request()).status === status, 5000, 'credential admitted');

  it('answers the creation with every field of the list, and the secret', async () => {
    const created = await create({ name: 'Billing export', type: 'secret' });
    const { secret_key, ...rest } = created;
    expect(secret_key).toEqual(expect.any(String));
    expect(rest).toEqual(await listed(created.id));
    expect(rest).toMatchObject({ name: 'Billing export', status: 'active', expires_at: null, allowed_origins: [], device_ids: null, revoked_at: null });
  });

  it('renames, expires and revives a credential; the gateway answers 401 credential_expired past expires_at', async () => {
    const created = await create({ name: 'Short lived', type: 'secret' });
    const credential = { accessKey: created.access_key, secretKey: created.secret_key };
    await admitted(() => signedRequest(stack.port, credential, { target: '/meter/v1/devices' }));

    const expired = await patch(created.id, { name: 'Expired one', expires_at: '2026-01-01T00:00:00+01:00' });
    expect(expired.status, JSON.stringify(expired.body)).toBe(200);
    expect(expired.body).toMatchObject({ name: 'Expired one', expires_at: '2025-12-31T23:00:00.000Z', status: 'active' });
    expect(await listed(created.id)).toMatchObject({ name: 'Expired one', expires_at: '2025-12-31T23:00:00.000Z' });
    // Auth answers once every gateway applies the change: the very next request is refused.
    const refused = await signedRequest(stack.port, credential, { target: '/meter/v1/devices' });
    expect(refused.status).toBe(401);
    expect(refused.json().code).toBe('credential_expired');

    const later = new Date(Date.now() + 86_400_000).toISOString();
    expect((await patch(created.id, { expires_at: later })).status).toBe(200);
    // Loosening reaches the gateways with the event, within moments (tightening holds before the answer).
    await eventually(async () => (await signedRequest(stack.port, credential, { target: '/meter/v1/devices' })).status === 200, 1000, 'expiry extended');
    expect((await patch(created.id, { expires_at: null })).body.expires_at).toBeNull();
  });

  it('serves a public key to its allowed origins only, with CORS answers, preflight included', async () => {
    const created = await create({ name: 'Lobby widget', type: 'public', allowed_origins: [WIDGET] });
    expect(created.allowed_origins).toEqual([WIDGET]);
    const key = created.access_key as string;
    await admitted(() => publicGet(key, '/meter/v1/devices'));

    const fromWidget = await publicGet(key, '/meter/v1/devices', { origin: WIDGET });
    expect(fromWidget.status).toBe(200);
    expect(fromWidget.headers['access-control-allow-origin']).toBe(WIDGET);
    expect(String(fromWidget.headers['access-control-expose-headers'])).toContain('RateLimit');

    const fromElsewhere = await publicGet(key, '/meter/v1/devices', { origin: 'https://attacker.example' });
    expect(fromElsewhere.status).toBe(403);
    expect(fromElsewhere.json().code).toBe('origin_not_allowed');
    expect(fromElsewhere.headers['access-control-allow-origin']).toBeUndefined();

    const preflight = (origin: string) =>
      rawRequest(stack.port, {
        method: 'OPTIONS',
        target: '/meter/v1/history?device_id=1&period=7D',
        headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization,x-unit' },
      });
    const allowed = await preflight(WIDGET);
    expect(allowed.status).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe(WIDGET);
    expect(String(allowed.headers['access-control-allow-headers'])).toContain('Authorization');
    const refused = await preflight('https://attacker.example');
    expect(refused.status).toBe(403);
    expect(refused.json().code).toBe('origin_not_allowed');
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();

    // Without Origin (not a browser) the origins do not apply.
    expect((await publicGet(key, '/meter/v1/devices')).status).toBe(200);
  });

  it('limits a credential to its device_ids: 404, NOT_FOUND and absent elsewhere', async () => {
    const created = await create({ name: 'Two meters', type: 'public', device_ids: [2, 1, 2] });
    expect(created.device_ids).toEqual([1, 2]);
    const key = created.access_key as string;
    await admitted(() => publicGet(key, '/meter/v1/devices'));

    const list = (await publicGet(key, '/meter/v1/devices?limit=1')).json() as Json;
    expect(list.rows.map((r: Json) => r.id)).toEqual([1]);
    const second = (await publicGet(key, `/meter/v1/devices?limit=1&next_page_token=${encodeURIComponent(list.next_page_token)}`)).json() as Json;
    expect(second.rows.map((r: Json) => r.id)).toEqual([2]);
    expect(second.has_more).toBe(false);

    expect((await publicGet(key, '/meter/v1/history?device_id=1&period=7D')).status).toBe(200);
    for (const target of [
      '/meter/v1/history?device_id=3&period=7D',
      '/meter/v1/history/3m?device_id=3',
      '/meter/v1/projection?device_id=3',
      '/meter/v1/projection/3',
      '/meter/v1/consumption?device_id=3&from=2026-01-01&to=2026-01-02&interval=PT1H',
    ]) {
      const response = await publicGet(key, target);
      expect(response.status, target).toBe(404);
      expect(response.json().detail).toBe('device 3 not found');
    }
    const bulk = (await publicGet(key, '/meter/v1/projection/bulk?device_ids=1,3')).json() as Json;
    expect(bulk.errors).toEqual([{ device_id: '3', code: 'NOT_FOUND', message: 'device 3 not found' }]);
    const dashboard = (await publicPost(key, '/meter/v1/dashboard', { devices: [{ device_id: 1 }, { device_id: 3 }] })).json() as Json;
    expect(dashboard.results.map((r: Json) => r.status)).toEqual(['SUCCESS', 'NOT_FOUND']);
    expect(((await publicGet(key, '/meter/v1/alerts?device_id=3')).json() as Json).alerts).toEqual([]);
    expect(((await publicGet(key, '/meter/v1/alerts')).json() as Json).alerts).toEqual([]);

    // The limit lifted: device 3 and its alert are there.
    expect((await patch(created.id, { device_ids: null })).status).toBe(200);
    expect((await publicGet(key, '/meter/v1/history?device_id=3&period=7D')).status).toBe(200);
    expect(((await publicGet(key, '/meter/v1/alerts')).json() as Json).alerts.map((a: Json) => a.device_id)).toEqual([3]);
  });

  it('refuses bad limits naming the field, and changes to a revoked credential', async () => {
    const created = await create({ name: 'Checked', type: 'public' });
    for (const [body, field] of [
      [{ allowed_origins: ['https://widget.riverside.example/'] }, 'allowed_origins[0]'],
      [{ allowed_origins: ['*'] }, 'allowed_origins[0]'],
      [{ device_ids: [] }, 'device_ids'],
      [{ device_ids: [0] }, 'device_ids[0]'],
      [{ device_ids: Array.from({ length: 1001 }, (_, i) => i + 1) }, 'device_ids'],
      [{ expires_at: '2027-06-30' }, 'expires_at'],
      [{ name: ' ' }, 'name'],
      [{}, 'body'],
    ] as const) {
      const response = await patch(created.id, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.errors.map((e: Json) => e.field)).toContain(field);
    }
    expect((await call(auth.base, 'DELETE', `/org-api-credentials/${created.id}`, { token })).status).toBe(204);
    const revoked = await patch(created.id, { name: 'Renamed' });
    expect(revoked.status).toBe(409);
    expect(revoked.body.code).toBe('credential_revoked');
  });
});
