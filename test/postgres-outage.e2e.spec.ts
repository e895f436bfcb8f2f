import { jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectNats } from '@meter/messaging';
import { eventually, freePort, isolatedInfra, startReadyApp, TcpProxy, type IsolatedInfra, type PlatformProcess } from '@meter/testing';
import { authDataSource, call, login, newOrg, startAuth, type JsonResponse } from './auth-support';
import { signedRequest, testKeyRing } from './gateway-support';

const OUTAGE_MS = 4000;
const RECOVERY_BOUND_MS = 5000;
const H = 3600_000;

interface Answer {
  status: number;
  retryAfter: string | null;
  contentType: string | null;
  code?: string;
}

type Route = { name: string; send: () => Promise<Answer> };

/**
 * Postgres goes away under signed traffic and comes back. The gateway and
 * auth reach it through a TCP proxy the test cuts (the shared server keeps
 * running). While it is away every route answers 503 database_unavailable
 * with Retry-After, never 500; within a bound after it returns every route
 * answers 200 again; each process logs the outage once, not per request.
 */
describe('a Postgres outage under signed traffic', () => {
  let infra: IsolatedInfra;
  let proxy: TcpProxy;
  let auth: Awaited<ReturnType<typeof startAuth>>;
  let gateway: { process: PlatformProcess; port: number };
  let ingest: { process: PlatformProcess; port: number };
  let db: DataSource;
  let nc: NatsConnection;
  let routes: Route[];

  beforeAll(async () => {
    infra = await isolatedInfra();
    const keys = await testKeyRing();
    proxy = await TcpProxy.to(infra.databaseUrl, await freePort());
    const viaProxy = proxy.via(infra.databaseUrl);
    db = await authDataSource({ DATABASE_URL: infra.databaseUrl }, 'outage-test');
    // The default login limits: logins refused for want of the database count nothing, so the loop never locks the admin out.
    const limits = { RATE_LIMIT_PER_MINUTE: '100000' };
    [auth, gateway, ingest] = await Promise.all([
      startAuth(infra, { CREDENTIAL_KEYRING: keys.env, DATABASE_URL: viaProxy, ...limits }),
      startReadyApp('gateway', infra.env({ CREDENTIAL_KEYRING: keys.env, DATABASE_URL: viaProxy, ...limits })),
      startReadyApp('ingest', infra.env()),
    ]);

    const org = await newOrg(db, { fastHash: true });
    const token = await login(auth.base, org.email, org.password);
    const created = await call(auth.base, 'POST', '/org-api-credentials', {
      token,
      body: { name: 'outage', type: 'secret', scopes: ['meter:consumption:read'] },
    });
    expect(created.status).toBe(201);
    const credential = { accessKey: created.body.access_key as string, secretKey: created.body.secret_key as string };

    // One meter with a day of hourly readings.
    nc = await connectNats(infra.natsUrl, 'outage-test');
    const js = jetstream(nc);
    await js.publish(infra.bus.subject(`meter.devices.${org.orgId}.1`), JSON.stringify({ name: 'Kitchen', time_zone: 'Europe/Madrid' }));
    const start = Math.floor(Date.now() / H) * H - 24 * H;
    const readings = Array.from({ length: 25 }, (_, i) => ({ read_at: new Date(start + i * H).toISOString(), value: 100 + i / 10 }));
    await js.publish(infra.bus.subject(`meter.readings.${org.orgId}.1`), JSON.stringify(readings));
    const reader = new Client({ connectionString: infra.databaseUrl });
    await reader.connect();
    await eventually(
      async () => Number((await reader.query('SELECT count(*) AS n FROM ingest.readings WHERE org_id = $1', [org.orgId])).rows[0].n) === 25,
      20_000,
      'readings stored',
    ).finally(() => reader.end());

    const signed =
      (target: string, method = 'GET', body?: string) =>
      async (): Promise<Answer> => {
        const r = await signedRequest(gateway.port, credential, { method, target, body });
        const problem = r.status >= 400 && r.text ? (JSON.parse(r.text) as { code?: string }) : undefined;
        return { status: r.status, retryAfter: header(r.headers['retry-after']), contentType: header(r.headers['content-type']), code: problem?.code };
      };
    const managed =
      (method: string, path: string, body?: unknown, bearer: string | undefined = token) =>
      async (): Promise<Answer> => {
        const r = await call(auth.base, method, path, { token: bearer, body });
        return answerOf(r);
      };
    // Revocations need a live credential each; made on demand, so an outage during one only repeats it.
    const toRevoke: string[] = [];
    const revokeOne = async (): Promise<Answer> => {
      if (toRevoke.length === 0) {
        const made = await call(auth.base, 'POST', '/org-api-credentials', {
          token,
          body: { name: 'to revoke', type: 'public', scopes: ['meter:consumption:read'] },
        });
        if (made.status !== 201) return answerOf(made);
        toRevoke.push(made.body.id as string);
      }
      const r = await call(auth.base, 'DELETE', `/org-api-credentials/${toRevoke[0]}`, { token });
      if (r.status === 204) toRevoke.shift();
      return { ...answerOf(r), status: r.status === 204 ? 200 : r.status };
    };
    const id = created.body.id as string;
    routes = [
      { name: 'GET /meter/v1/devices', send: signed('/meter/v1/devices') },
      { name: 'POST /meter/v1/dashboard', send: signed('/meter/v1/dashboard', 'POST', JSON.stringify({ devices: [{ device_id: 1 }] })) },
      { name: 'GET /meter/v1/history', send: signed('/meter/v1/history?device_id=1&period=7D') },
      { name: 'GET /meter/v1/history/3m', send: signed('/meter/v1/history/3m?device_id=1') },
      { name: 'GET /meter/v1/projection', send: signed('/meter/v1/projection?device_id=1') },
      { name: 'GET /meter/v1/projection/1', send: signed('/meter/v1/projection/1') },
      { name: 'GET /meter/v1/projection/bulk', send: signed('/meter/v1/projection/bulk?device_ids=1') },
      { name: 'POST /login', send: managed('POST', '/login', { email: org.email, password: org.password }, undefined) },
      { name: 'GET /org-api-credentials', send: managed('GET', '/org-api-credentials') },
      { name: 'GET /org-api-credentials/available-scopes', send: managed('GET', '/org-api-credentials/available-scopes') },
      { name: 'GET /org-api-credentials/{id}', send: managed('GET', `/org-api-credentials/${id}`) },
      { name: 'PATCH /org-api-credentials/{id}', send: managed('PATCH', `/org-api-credentials/${id}`, { allowed_cidrs: [] }) },
      {
        name: 'POST /org-api-credentials',
        send: async () => {
          const a = await managed('POST', '/org-api-credentials', { name: 'during', type: 'public', scopes: ['meter:consumption:read'] })();
          return { ...a, status: a.status === 201 ? 200 : a.status };
        },
      },
      { name: 'DELETE /org-api-credentials/{id}', send: revokeOne },
    ];
    // Every route works before the outage.
    await eventually(async () => (await routes[0].send()).status === 200, 10_000, 'the gateway knows the credential');
    for (const route of routes) expect({ route: route.name, status: (await route.send()).status }).toEqual({ route: route.name, status: 200 });
  }, 120_000);

  afterAll(async () => {
    await Promise.all([gateway?.process.stop(), auth?.process.stop(), ingest?.process.stop()]);
    await proxy?.close();
    await nc?.close();
    await db?.destroy();
    await infra?.cleanup();
  });

  it('answers only 200 or 503 with Retry-After while it is away, and 200 on every route within 5 s of its return', async () => {
    const logMark = { gateway: gateway.process.output.length, auth: auth.process.output.length };
    const seen = new Map<string, Answer[]>(routes.map((r) => [r.name, []]));
    await proxy.cut();
    const until = Date.now() + OUTAGE_MS;
    while (Date.now() < until) {
      await Promise.all(routes.map(async (route) => seen.get(route.name)!.push(await route.send())));
    }
    await proxy.open();

    // Every route answers again within the bound (polled: a bound on recovery, not a speed measurement).
    const restored = Date.now();
    await Promise.all(
      routes.map((route) =>
        eventually(async () => (await route.send()).status === 200, RECOVERY_BOUND_MS - (Date.now() - restored), `${route.name} answering 200 again`),
      ),
    );

    for (const [name, answers] of seen) {
      const unexpected = answers
        .filter(
          (a) =>
            a.status !== 200 &&
            !(
              a.status === 503 &&
              a.code === 'database_unavailable' &&
              /^[1-9][0-9]*$/.test(a.retryAfter ?? '') &&
              a.contentType?.startsWith('application/problem+json')
            ),
        )
        .map((a) => `${a.status} ${a.code} retry-after=${a.retryAfter} ${a.contentType}`);
      expect({ route: name, unexpected: [...new Set(unexpected)] }).toEqual({ route: name, unexpected: [] });
      // The cut reached every route: each was refused at least once.
      expect({ route: name, refused: answers.some((a) => a.status === 503) }).toEqual({ route: name, refused: true });
    }

    // One warning when the outage starts and one when it ends, per process; no line per request.
    const processes = [
      ['gateway', gateway.process],
      ['auth', auth.process],
    ] as const;
    // The end is logged by each process's own probe (every second), which may come after a request succeeded.
    for (const [name, proc] of processes) {
      await eventually(
        async () => proc.output.slice(logMark[name]).some((line) => /^Postgres available again/.test(parseLine(line).msg ?? '')),
        5000,
        `${name} logging the end of the outage`,
      );
    }
    for (const [name, proc] of processes) {
      const lines = proc.output.slice(logMark[name]).map(parseLine);
      const warnings = lines.filter((l) => (l.level ?? 0) >= 40);
      const started = warnings.filter((l) => /^Postgres unavailable/.test(l.msg ?? ''));
      const ended = lines.filter((l) => /^Postgres available again/.test(l.msg ?? ''));
      expect({ process: name, started: started.length, ended: ended.length }).toEqual({ process: name, started: 1, ended: 1 });
      expect(warnings.length, `${name} warnings: ${warnings.map((w) => w.msg).join(' | ')}`).toBeLessThanOrEqual(4);
    }
  }, 60_000);
});

function header(value: string | string[] | undefined): string | null {
  return Array.isArray(value) ? value.join(', ') : (value ?? null);
}

function answerOf(r: JsonResponse): Answer {
  return { status: r.status, retryAfter: r.headers.get('retry-after'), contentType: r.headers.get('content-type'), code: r.body?.code };
}

function parseLine(line: string): { level?: number; msg?: string } {
  try {
    return JSON.parse(line) as { level?: number; msg?: string };
  } catch {
    return { msg: line };
  }
}
