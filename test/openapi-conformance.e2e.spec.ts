import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboundEventSubject, VAULT_ENTRY_TYPES } from '@meter/contracts';
import { jetstream } from '@nats-io/jetstream';
import { randomUUID } from 'node:crypto';
import { connectNats } from '@meter/messaging';
import { eventually, isolatedInfra, PlatformProcess, startReadyApp, type IsolatedInfra } from '@meter/testing';
import { authDataSource, call, login, newOrg, startAuth } from './auth-support';
import { startConsumptionStack, type ConsumptionStack } from './consumption-stack';
import { signedRequest, type RawResponse, type TestCredential } from './gateway-support';
import { DocumentedApi } from './openapi-conformance';
import { startS3, type S3Emulator } from './export-emulators';
import { ringEntry, secretsFor } from './vault-fixtures';

/**
 * The documents of docs/openapi/ hold what the processes really do: every
 * operation is called, and each answer (successes and problems) and each
 * request body sent is checked against the committed schema.
 */
const NOW = '2026-11-21T10:17:00.000Z';
const H = 3600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const rawHeader = (response: RawResponse, name: string) => {
  const value = response.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
};

describe('docs/openapi/gateway.json describes the running gateway', () => {
  const api = new DocumentedApi('gateway');
  let stack: ConsumptionStack;
  let port: number;
  let caller: TestCredential;

  /** Calls `target`, checks the answer against `path`'s operation and returns it. */
  const check = async (method: 'GET' | 'POST', path: string, target: string, options: { body?: unknown; zone?: string } = {}) => {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const response = await signedRequest(port, caller, { method, target, body, headers: options.zone ? { 'x-timezone': options.zone } : {} });
    const parsed = response.text ? JSON.parse(response.text) : undefined;
    expect(
      api.responseProblems(method, path, { status: response.status, header: (name) => rawHeader(response, name), body: parsed }),
      `${method} ${target} -> ${response.status} ${response.text.slice(0, 300)}`,
    ).toEqual([]);
    return { status: response.status, body: parsed };
  };

  beforeAll(async () => {
    stack = await startConsumptionStack('openapi-conformance-e2e', ['org_doc'], { TEST_NOW: NOW, INGEST_ALERT_RULES: 'on' });
    ({ port } = stack);
    caller = stack.credentials.org_doc;
    const publish = (kind: 'readings' | 'devices', device: number, payload: unknown) => stack.publish('org_doc', kind, device, payload);
    // Device 7: two channels, hourly since 2026-09-25, channel 2 reset on 2026-11-20 and silent before 2026-11-10 (NO_DATA days).
    await publish('devices', 7, { name: 'Twin meter', channels: 2, time_zone: 'Europe/Madrid', price_per_unit: 2, currency_symbol: '€' });
    const readings = [];
    for (let t = Date.UTC(2026, 8, 25), v = 100; t <= Date.UTC(2026, 10, 21, 10); t += H, v += 0.25) {
      readings.push({ read_at: iso(t), value: v.toFixed(2), channel: 1 });
      if (t >= Date.UTC(2026, 10, 10))
        readings.push({ read_at: iso(t), value: t >= Date.UTC(2026, 10, 20) ? (t - Date.UTC(2026, 10, 20)) / H : 5000 + v, channel: 2 });
    }
    for (let i = 0; i < readings.length; i += 200) await publish('readings', 7, readings.slice(i, i + 200));
    // Devices 8 and 9: one reading each, never registered (so paging has more than one page).
    await publish('readings', 8, { read_at: iso(Date.UTC(2026, 10, 21, 9)), value: 1 });
    await publish('readings', 9, { read_at: iso(Date.UTC(2026, 10, 21, 9)), value: 1 });
    await stack.stored(readings.length + 2, { orgId: 'org_doc', deviceId: 7, name: 'Twin meter' });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('devices: both pages, and a forged token', async () => {
    const first = await check('GET', '/meter/v1/devices', '/meter/v1/devices?limit=2');
    expect(first.body.next_page_token).toEqual(expect.any(String));
    const last = await check('GET', '/meter/v1/devices', `/meter/v1/devices?ipp=2&next_page_token=${encodeURIComponent(first.body.next_page_token)}`);
    expect(last.body).toMatchObject({ has_more: false, next_page_token: null, next_cursor: null });
    expect((await check('GET', '/meter/v1/devices', '/meter/v1/devices?next_page_token=forged')).status).toBe(400);
    expect((await check('GET', '/meter/v1/devices', '/meter/v1/devices?limit=501')).status).toBe(400);
  });

  it('dashboard: found and unknown devices, with and without X-Timezone, and a bad body', async () => {
    const body = { devices: [{ device_id: 7 }, { device_id: 8 }, { device_id: 404 }] };
    expect(api.requestBodyProblems('POST', '/meter/v1/dashboard', body)).toEqual([]);
    const answer = await check('POST', '/meter/v1/dashboard', '/meter/v1/dashboard', { body });
    expect(answer.body.results.map((r: { status: string }) => r.status)).toEqual(['SUCCESS', 'SUCCESS', 'NOT_FOUND']);
    expect(answer.body.results[0].panels).toHaveLength(8);
    await check('POST', '/meter/v1/dashboard', '/meter/v1/dashboard', { body, zone: 'Asia/Kathmandu' });
    const bad = { devices: [] };
    expect(api.requestBodyProblems('POST', '/meter/v1/dashboard', bad)).not.toEqual([]);
    expect((await check('POST', '/meter/v1/dashboard', '/meter/v1/dashboard', { body: bad })).status).toBe(400);
  });

  it('history: every kind of period, alerts, unknown device and bad input', async () => {
    for (const period of ['7D', '15D', 'CURRENT_MONTH', '2026-10', '2026-11']) {
      const answer = await check('GET', '/meter/v1/history', `/meter/v1/history?device_id=7&period=${period}`, { zone: 'UTC' });
      expect(answer.status).toBe(200);
    }
    const month = await check('GET', '/meter/v1/history', '/meter/v1/history?device_id=7&period=CURRENT_MONTH');
    const alerts = month.body.series[1].data_points.flatMap((p: { alerts: { code: string }[] }) => p.alerts.map((a) => a.code));
    // Channel 2 flowed every hour from 2026-11-10: LEAK raised on the 11th, cleared by the reset's still hour, raised again on the 21st.
    expect(new Set(alerts)).toEqual(new Set(['NO_DATA', 'REGISTER_RESET', 'LEAK']));
    expect((await check('GET', '/meter/v1/history', '/meter/v1/history?device_id=404&period=7D')).status).toBe(404);
    expect((await check('GET', '/meter/v1/history', '/meter/v1/history?device_id=7&period=3D')).status).toBe(400);
    expect((await check('GET', '/meter/v1/history', '/meter/v1/history?device_id=7&period=7D', { zone: 'Mars/Olympus' })).status).toBe(400);
    const three = await check('GET', '/meter/v1/history/3m', '/meter/v1/history/3m?device_id=7', { zone: 'America/New_York' });
    expect(three.body.series).toHaveLength(2);
    expect((await check('GET', '/meter/v1/history/3m', '/meter/v1/history/3m?device_id=404')).status).toBe(404);
  });

  it('consumption: each interval, a DST day, unknown device and bad input', async () => {
    for (const [interval, from, to] of [
      ['PT15M', '2026-11-20T06:00', '2026-11-20T08:00'],
      ['PT1H', '2026-10-25', '2026-10-26'],
      ['P1D', '2026-11-01', '2026-11-22'],
      ['P1M', '2026-09-01', '2026-12-01'],
    ]) {
      const answer = await check('GET', '/meter/v1/consumption', `/meter/v1/consumption?device_id=7&from=${from}&to=${to}&interval=${interval}&channel=2`);
      expect(answer.status).toBe(200);
    }
    expect((await check('GET', '/meter/v1/consumption', '/meter/v1/consumption?device_id=404&from=2026-11-20&to=2026-11-21&interval=PT1H')).status).toBe(404);
    expect((await check('GET', '/meter/v1/consumption', '/meter/v1/consumption?device_id=7&from=2026-11-20&to=2026-11-21&interval=PT5M')).status).toBe(400);
  });

  it('projection: by query, by path, bulk with an unknown id', async () => {
    await check('GET', '/meter/v1/projection', '/meter/v1/projection?device_id=7');
    await check('GET', '/meter/v1/projection/{deviceId}', '/meter/v1/projection/8', { zone: 'Asia/Kolkata' });
    expect((await check('GET', '/meter/v1/projection/{deviceId}', '/meter/v1/projection/404')).status).toBe(404);
    const bulk = await check('GET', '/meter/v1/projection/bulk', '/meter/v1/projection/bulk?device_ids=7,8,404');
    expect(bulk.body.errors).toHaveLength(1);
    expect((await check('GET', '/meter/v1/projection/bulk', '/meter/v1/projection/bulk?device_ids=7,x')).status).toBe(400);
  });

  it('alerts: open and all, paged, of one device, and bad input', async () => {
    await stack.publish('org_doc', 'alarms', 8, { code: 'LOW_BATTERY', state: 'raised', at: iso(Date.UTC(2026, 10, 21, 9, 30)) });
    await stack.publish('org_doc', 'alarms', 9, { code: 'TAMPER', state: 'raised', at: iso(Date.UTC(2026, 10, 21, 8)) });
    await stack.publish('org_doc', 'alarms', 9, { code: 'TAMPER', state: 'cleared', at: iso(Date.UTC(2026, 10, 21, 9)) });
    await eventually(
      async () => (await check('GET', '/meter/v1/alerts', '/meter/v1/alerts?device_id=9&state=cleared')).body.alerts.length === 1,
      10_000,
      'the alarms stored',
    );
    const open = await check('GET', '/meter/v1/alerts', '/meter/v1/alerts');
    expect(open.body.alerts.map((a: { code: string }) => a.code)).toEqual(expect.arrayContaining(['LOW_BATTERY', 'LEAK']));
    const first = await check('GET', '/meter/v1/alerts', '/meter/v1/alerts?state=all&limit=1');
    expect(first.body.has_more).toBe(true);
    await check('GET', '/meter/v1/alerts', `/meter/v1/alerts?state=all&limit=500&next_page_token=${encodeURIComponent(first.body.next_page_token)}`);
    expect((await check('GET', '/meter/v1/alerts', '/meter/v1/alerts?state=closed')).status).toBe(400);
    expect((await check('GET', '/meter/v1/alerts', '/meter/v1/alerts?next_page_token=forged')).status).toBe(400);
  });

  it('documents the problems of authentication', async () => {
    const response = await signedRequest(port, { accessKey: caller.accessKey, secretKey: 'wrong' }, { target: '/meter/v1/devices' });
    expect(
      api.responseProblems('GET', '/meter/v1/devices', { status: response.status, header: (name) => rawHeader(response, name), body: response.json() }),
    ).toEqual([]);
    expect(response.status).toBe(401);
  });

  it('had every operation answer a success', () => {
    expect(api.uncheckedSuccesses()).toEqual([]);
  });
});

describe('docs/openapi/management.json describes the running management API', () => {
  const api = new DocumentedApi('management');
  let infra: IsolatedInfra;
  let db: DataSource;
  let auth: { process: PlatformProcess; base: string };
  let vault: PlatformProcess;
  let integrations: PlatformProcess;
  let s3: S3Emulator;
  let token: string;
  let org: { orgId: string; email: string; password: string };

  const check = async (method: string, path: string, target: string, options: { body?: unknown; token?: string; headers?: Record<string, string> } = {}) => {
    const response = await call(auth.base, method, target, {
      body: options.body,
      token: options.token === undefined ? token : options.token || undefined,
      headers: options.headers,
    });
    const seen = { status: response.status, header: (name: string) => response.headers.get(name), body: response.body };
    expect(api.responseProblems(method, path, seen), `${method} ${target} -> ${response.status} ${JSON.stringify(response.body)?.slice(0, 300)}`).toEqual([]);
    return response;
  };

  beforeAll(async () => {
    infra = await isolatedInfra();
    db = await authDataSource({ DATABASE_URL: infra.databaseUrl }, 'openapi-conformance-test');
    auth = await startAuth(infra);
    org = await newOrg(db, { fastHash: true });
    token = await login(auth.base, org.email, org.password);
    ({ process: vault } = await startReadyApp('vault', infra.env({ VAULT_ROOT_KEYRING: ringEntry('k1') })));
    ({ process: integrations } = await startReadyApp('integrations', infra.env({ EXPORT_POLL_SECONDS: '0.5', DATA_DIR: `.data/test-${infra.busPrefix}` })));
    s3 = await startS3();
  }, 90_000);

  afterAll(async () => {
    await integrations?.stop();
    await s3?.stop();
    await vault?.stop();
    await auth?.process.stop();
    await db?.destroy();
    await infra?.cleanup();
  });

  it('login and logout, without and with a session', async () => {
    const body = { email: org.email, password: org.password };
    expect(api.requestBodyProblems('POST', '/login', body)).toEqual([]);
    const session = await check('POST', '/login', '/login', { body, token: '' });
    expect((await check('POST', '/login', '/login', { body: { ...body, password: 'wrong password' }, token: '' })).status).toBe(401);
    expect(api.requestBodyProblems('POST', '/login', { email: org.email })).not.toEqual([]);
    expect((await check('POST', '/login', '/login', { body: { email: org.email }, token: '' })).status).toBe(400);
    expect((await check('POST', '/logout', '/logout', { token: session.body.access_token })).status).toBe(204);
    expect((await check('POST', '/logout', '/logout', { token: session.body.access_token })).status).toBe(401);
  });

  it('the console session: sign in with a cookie, read it, sign out only with the CSRF token', async () => {
    const signedIn = await check('POST', '/session', '/session', { body: { email: org.email, password: org.password }, token: '' });
    expect((await check('POST', '/session', '/session', { body: { email: org.email, password: 'wrong password' }, token: '' })).status).toBe(401);
    const cookie = /^(meter_session=[^;]+)/.exec(signedIn.headers.get('set-cookie')!)![1];
    expect((await check('GET', '/session', '/session', { token: '', headers: { cookie } })).body.csrf_token).toBe(signedIn.body.csrf_token);
    expect((await check('DELETE', '/session', '/session', { token: '', headers: { cookie } })).status).toBe(403);
    expect((await check('DELETE', '/session', '/session', { token: '', headers: { cookie, 'x-csrf-token': signedIn.body.csrf_token } })).status).toBe(204);
    expect((await check('GET', '/session', '/session', { token: '', headers: { cookie } })).status).toBe(401);
  });

  it('credentials: scopes, create (secret and public), list, read, allow-list, revoke', async () => {
    await check('GET', '/org-api-credentials/available-scopes', '/org-api-credentials/available-scopes');
    const ids: string[] = [];
    for (const type of ['secret', 'public']) {
      const body = { name: `doc ${type}`, type, scopes: ['meter:consumption:read'] };
      expect(api.requestBodyProblems('POST', '/org-api-credentials', body)).toEqual([]);
      const created = await check('POST', '/org-api-credentials', '/org-api-credentials', { body });
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }
    expect((await check('POST', '/org-api-credentials', '/org-api-credentials', { body: { name: 'x', type: 'secret', scopes: ['admin'] } })).status).toBe(400);
    const cidrs = { allowed_cidrs: ['10.0.0.0/8', '2001:db8::/32'] };
    expect(api.requestBodyProblems('PATCH', '/org-api-credentials/{id}', cidrs)).toEqual([]);
    await check('PATCH', '/org-api-credentials/{id}', `/org-api-credentials/${ids[0]}`, { body: cidrs });
    expect((await check('DELETE', '/org-api-credentials/{id}', `/org-api-credentials/${ids[1]}`)).status).toBe(204);
    expect((await check('PATCH', '/org-api-credentials/{id}', `/org-api-credentials/${ids[1]}`, { body: cidrs })).status).toBe(409);
    const listed = await check('GET', '/org-api-credentials', '/org-api-credentials');
    expect(listed.body.credentials.map((c: { status: string }) => c.status).sort()).toEqual(['active', 'revoked']);
    await check('GET', '/org-api-credentials/{id}', `/org-api-credentials/${ids[1]}`);
    expect((await check('GET', '/org-api-credentials/{id}', '/org-api-credentials/cred_unknown')).status).toBe(404);
    expect((await check('GET', '/org-api-credentials', '/org-api-credentials', { token: '' })).status).toBe(401);
  });

  it('vault: an entry of each type, the masked list, delete', async () => {
    const secrets = secretsFor('doc');
    let id = '';
    for (const type of VAULT_ENTRY_TYPES) {
      const body = { namespace: 'batch', type, data: secrets[type] };
      expect(api.requestBodyProblems('PATCH', '/organization-vault', body)).toEqual([]);
      const stored = await check('PATCH', '/organization-vault', '/organization-vault', { body });
      expect(stored.status).toBe(200);
      id = stored.body.id;
    }
    const wrong = { namespace: 'batch', type: 'api_token_identity', data: { token: 'x'.repeat(1025) } };
    expect(api.requestBodyProblems('PATCH', '/organization-vault', wrong)).not.toEqual([]);
    expect((await check('PATCH', '/organization-vault', '/organization-vault', { body: wrong })).status).toBe(400);
    const mixed = { namespace: 'batch', type: 's3_identity', data: secrets.api_token_identity };
    expect(api.requestBodyProblems('PATCH', '/organization-vault', mixed)).not.toEqual([]);
    expect((await check('PATCH', '/organization-vault', '/organization-vault', { body: mixed })).status).toBe(400);
    const listed = await check('GET', '/organization-vault', '/organization-vault');
    expect(listed.body.entries).toHaveLength(VAULT_ENTRY_TYPES.length);
    expect((await check('DELETE', '/organization-vault/{id}', `/organization-vault/${id}`)).status).toBe(204);
    expect((await check('DELETE', '/organization-vault/{id}', `/organization-vault/${id}`)).status).toBe(404);
  });

  it('exports: activate, list, read, pause, queue a run, read its runs, delete', async () => {
    await s3.createBucket('doc-exports');
    const entry = { access_key: s3.accessKey, secret_key: s3.secretKey, end_point: s3.endpoint, region: 'us-east-1' };
    expect(
      (await check('PATCH', '/organization-vault', '/organization-vault', { body: { namespace: 'exports', type: 's3_identity', data: entry } })).status,
    ).toBe(200);
    const body = { type: 'batch_export', namespace: 'exports', storage_type: 's3_identity', destination: { bucket: 'doc-exports', prefix: 'd/' } };
    expect(api.requestBodyProblems('POST', '/integrations', body)).toEqual([]);
    const created = await check('POST', '/integrations', '/integrations', { body });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await check('POST', '/integrations', '/integrations', { body: { ...body, format: 'xml' } })).status).toBe(400);
    expect((await check('POST', '/integrations', '/integrations', { body: { ...body, destination: { bucket: 'no-such-bucket' } } })).status).toBe(422);
    await check('GET', '/integrations', '/integrations');
    expect(api.requestBodyProblems('PATCH', '/integrations/{id}', { status: 'paused' })).toEqual([]);
    expect((await check('PATCH', '/integrations/{id}', `/integrations/${id}`, { body: { status: 'paused' } })).body.status).toBe('paused');
    const range = { from: '2026-11-01', to: '2026-11-02' };
    expect(api.requestBodyProblems('POST', '/integrations/{id}/runs', range)).toEqual([]);
    const queued = await check('POST', '/integrations/{id}/runs', `/integrations/${id}/runs`, { body: range });
    expect(queued.status).toBe(202);
    await eventually(
      async () => (await call(auth.base, 'GET', `/integrations/${id}/runs/${queued.body.id}`, { token })).body.status === 'succeeded',
      30_000,
      'the run finished',
    );
    expect((await check('GET', '/integrations/{id}/runs/{runId}', `/integrations/${id}/runs/${queued.body.id}`)).body.files).toHaveLength(2);
    expect((await check('GET', '/integrations/{id}/runs', `/integrations/${id}/runs`)).body.runs).toHaveLength(1);
    expect((await check('GET', '/integrations/{id}', `/integrations/${id}`)).body.last_run.id).toBe(queued.body.id);
    expect((await check('POST', '/integrations/{id}/runs', `/integrations/${id}/runs`, { body: { from: '2026-11-02', to: '2026-11-01' } })).status).toBe(400);
    expect((await check('DELETE', '/integrations/{id}', `/integrations/${id}`)).status).toBe(204);
    expect((await check('GET', '/integrations/{id}', `/integrations/${id}`)).status).toBe(404);
  });

  it('webhook endpoints: create, list, change, rotate, deliveries, retry, delete', async () => {
    const body = { url: 'http://127.0.0.1:9/hook', events: ['alert.raised'], description: 'doc' };
    expect(api.requestBodyProblems('POST', '/webhook-endpoints', body)).toEqual([]);
    const created = await check('POST', '/webhook-endpoints', '/webhook-endpoints', { body });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    expect((await check('POST', '/webhook-endpoints', '/webhook-endpoints', { body: { ...body, events: ['alert.opened'] } })).status).toBe(400);
    await check('GET', '/webhook-endpoints', '/webhook-endpoints');
    const change = { events: ['alert.raised', 'alert.cleared'] };
    expect(api.requestBodyProblems('PATCH', '/webhook-endpoints/{id}', change)).toEqual([]);
    expect((await check('PATCH', '/webhook-endpoints/{id}', `/webhook-endpoints/${id}`, { body: change })).status).toBe(200);
    expect((await check('PATCH', '/webhook-endpoints/{id}', `/webhook-endpoints/${randomUUID()}`, { body: change })).status).toBe(404);
    expect((await check('POST', '/webhook-endpoints/{id}/rotate-secret', `/webhook-endpoints/${id}/rotate-secret`)).status).toBe(200);
    // An event of the organization on the bus makes a delivery (to a port nothing listens on: it stays pending).
    const nc = await connectNats(infra.natsUrl, 'openapi-conformance-events');
    try {
      const event = { event_id: randomUUID(), type: 'alert.raised', org_id: org.orgId, occurred_at: new Date().toISOString(), data: { code: 'LEAK' } };
      await jetstream(nc).publish(infra.bus.subject(outboundEventSubject(org.orgId, 'alert.raised')), JSON.stringify(event), { msgID: event.event_id });
    } finally {
      await nc.drain();
    }
    const deliveries = await eventually(
      async () => {
        const listed = await check('GET', '/webhook-endpoints/{id}/deliveries', `/webhook-endpoints/${id}/deliveries`);
        return listed.body.deliveries.length === 1 ? listed.body.deliveries : false;
      },
      10_000,
      'a delivery',
    );
    const retried = await check(
      'POST',
      '/webhook-endpoints/{id}/deliveries/{deliveryId}/retry',
      `/webhook-endpoints/${id}/deliveries/${deliveries[0].id}/retry`,
    );
    expect(retried.status).toBe(202);
    const tested = await check('POST', '/webhook-endpoints/{id}/test', `/webhook-endpoints/${id}/test`);
    expect(tested.status).toBe(202);
    expect(tested.body).toMatchObject({ status: 'pending', type: 'webhook.test' });
    expect((await check('POST', '/webhook-endpoints/{id}/test', `/webhook-endpoints/${randomUUID()}/test`)).status).toBe(404);
    expect((await check('DELETE', '/webhook-endpoints/{id}', `/webhook-endpoints/${id}`)).status).toBe(204);
    expect((await check('DELETE', '/webhook-endpoints/{id}', `/webhook-endpoints/${id}`)).status).toBe(404);
  });

  it('collector credentials: create, list, unmatched, revoke', async () => {
    const body = { name: 'Harbour street receiver', format: 'chirpstack', mapping: { value: '/index', unit: 'L' } };
    expect(api.requestBodyProblems('POST', '/collector-credentials', body)).toEqual([]);
    const created = await check('POST', '/collector-credentials', '/collector-credentials', { body });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    expect((await check('POST', '/collector-credentials', '/collector-credentials', { body: { ...body, format: 'lorawan' } })).status).toBe(400);
    await check('GET', '/collector-credentials', '/collector-credentials');
    expect((await check('GET', '/collector-credentials/{id}/unmatched', `/collector-credentials/${id}/unmatched`)).body).toEqual({ unmatched: [] });
    expect((await check('DELETE', '/collector-credentials/{id}', `/collector-credentials/${id}`)).status).toBe(204);
    expect((await check('GET', '/collector-credentials/{id}/unmatched', '/collector-credentials/ccr_N5vB8cX1zL4kJ7hG2fD9sA/unmatched')).status).toBe(404);
  });

  it('fleet: devices, history, three months, projection, alerts', async () => {
    const { process: ingest } = await startReadyApp('ingest', infra.env({ INGEST_ALERT_RULES: 'off' }));
    const nc = await connectNats(infra.natsUrl, 'openapi-conformance-fleet');
    try {
      const js = jetstream(nc);
      const subject = (kind: string) => infra.bus.subject(`meter.${kind}.${org.orgId}.5`);
      await js.publish(subject('devices'), JSON.stringify({ name: 'Harbour street', time_zone: 'Europe/Madrid' }));
      const start = Date.now() - 72 * H;
      const readings = Array.from({ length: 72 }, (_, i) => ({ read_at: iso(start + i * H), value: (10 + i * 0.02).toFixed(3) }));
      await js.publish(subject('readings'), JSON.stringify(readings));
      await js.publish(subject('alarms'), JSON.stringify({ code: 'TAMPER', state: 'raised', at: iso(start) }));
      await eventually(
        async () => {
          const listed = await check('GET', '/devices', '/devices?limit=1');
          return listed.body.devices[0]?.last_reading !== null && listed.body.devices[0]?.open_alerts.length === 1;
        },
        20_000,
        'the device, its readings and its alarm stored',
      );
      // Radio ids: set through the management API (ingest applies them), one taken by device 8.
      await js.publish(infra.bus.subject(`meter.devices.${org.orgId}.8`), JSON.stringify({ name: 'Quay', external_ids: { wmbus_id: '76348799' } }));
      await eventually(async () => (await check('GET', '/devices/{id}', '/devices/8')).status === 200, 20_000, 'device 8 stored');
      const ids = { external_ids: { dev_eui: '0004A30B001C0530' } };
      expect(api.requestBodyProblems('PATCH', '/devices/{id}', ids)).toEqual([]);
      expect((await check('PATCH', '/devices/{id}', '/devices/5', { body: ids })).body.external_ids).toEqual({ dev_eui: '0004a30b001c0530', wmbus_id: null });
      expect((await check('PATCH', '/devices/{id}', '/devices/5', { body: { external_ids: { wmbus_id: '76348799' } } })).status).toBe(409);
      expect((await check('PATCH', '/devices/{id}', '/devices/5', { body: { external_ids: { wmbus_id: '7634879A' } } })).status).toBe(400);
      expect((await check('PATCH', '/devices/{id}', '/devices/6', { body: ids })).status).toBe(404);
    } finally {
      await nc.drain();
      await ingest.stop();
    }
    expect((await check('GET', '/devices', '/devices?next_page_token=forged')).status).toBe(400);
    expect((await check('GET', '/devices/{id}', '/devices/5')).body.external_ids).toEqual({ dev_eui: '0004a30b001c0530', wmbus_id: null });
    expect((await check('GET', '/devices/{id}', '/devices/6')).status).toBe(404);
    expect((await check('GET', '/devices/{id}', '/devices/meter-5')).status).toBe(400);
    expect((await check('GET', '/devices/{id}/history', '/devices/5/history?period=7D')).status).toBe(200);
    expect((await check('GET', '/devices/{id}/history', '/devices/5/history?period=2099-01')).status).toBe(400);
    expect((await check('GET', '/devices/{id}/history', '/devices/6/history?period=7D')).status).toBe(404);
    expect((await check('GET', '/devices/{id}/history/3m', '/devices/5/history/3m')).status).toBe(200);
    expect((await check('GET', '/devices/{id}/history/3m', '/devices/6/history/3m')).status).toBe(404);
    expect((await check('GET', '/devices/{id}/projection', '/devices/5/projection')).status).toBe(200);
    expect((await check('GET', '/devices/{id}/projection', '/devices/6/projection')).status).toBe(404);
    expect((await check('GET', '/devices/{id}/alerts', '/devices/5/alerts')).body.alerts).toHaveLength(1);
    expect((await check('GET', '/devices/{id}/alerts', '/devices/5/alerts?state=closed')).status).toBe(400);
    expect((await check('GET', '/devices/{id}/alerts', '/devices/6/alerts')).status).toBe(404);
    expect((await check('GET', '/alerts', '/alerts?code=TAMPER&state=all')).body.alerts).toHaveLength(1);
    expect((await check('GET', '/alerts', '/alerts?code=FLOOD')).status).toBe(400);
  }, 60_000);

  it('audit log: a page, the next, one entry, and bad parameters', async () => {
    const first = await check('GET', '/audit-log', '/audit-log?limit=2');
    expect(first.body.has_more).toBe(true);
    await check('GET', '/audit-log', `/audit-log?limit=2&next_page_token=${first.body.next_page_token}`);
    expect((await check('GET', '/audit-log', '/audit-log?action=credential.stolen')).status).toBe(400);
    expect((await check('GET', '/audit-log/{id}', `/audit-log/${first.body.entries[0].id}`)).status).toBe(200);
    expect((await check('GET', '/audit-log/{id}', '/audit-log/999999999')).status).toBe(404);
  });

  it('had every operation answer a success', () => {
    expect(api.uncheckedSuccesses()).toEqual([]);
  });
});
