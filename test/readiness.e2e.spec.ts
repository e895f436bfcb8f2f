import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSource } from 'typeorm';
import { eventually, freePort, isolatedInfra, startReadyApp, TcpProxy, type IsolatedInfra, type PlatformProcess } from '@meter/testing';
import { authDataSource, call, login, newOrg, startAuth } from './auth-support';
import { AuthEvents, signedRequest, testKeyRing, type TestCredential } from './gateway-support';
import { ringEntry } from './vault-fixtures';

/**
 * Readiness means "can serve requests" (docs/operations.md, "Readiness"):
 * each built process, its servers reached through proxies this file cuts,
 * stays ready (200 `degraded`) without what it can serve without, and says
 * 503 without what it cannot.
 */
interface Readyz {
  status: number;
  body: { status: string | number; degraded: string[]; failed?: string[]; checks: Record<string, { status: string; required: boolean }> };
}

async function readyz(port: number): Promise<Readyz> {
  const response = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(5000) });
  return { status: response.status, body: (await response.json()) as Readyz['body'] };
}

/** Waits until `/readyz` answers as `expected` says, then returns that answer. */
function readyzUntil(port: number, what: string, expected: (r: Readyz) => boolean): Promise<Readyz> {
  return eventually(
    async () => {
      const r = await readyz(port);
      return expected(r) ? r : false;
    },
    20_000,
    what,
  );
}

async function dependencyUp(port: number, dependency: string): Promise<string | undefined> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return new RegExp(`^meter_dependency_up\\{dependency="${dependency}",required="(?:true|false)"\\} (\\d)$`, 'm').exec(text)?.[1];
}

describe('readiness means the process can serve requests', () => {
  let infra: IsolatedInfra;
  let db: DataSource;
  let events: AuthEvents;
  const proxies: Record<string, TcpProxy> = {};
  const processes: PlatformProcess[] = [];
  const ports = { gateway: 0, auth: 0, vault: 0, ingest: 0 };
  let authBase: string;
  let credential: TestCredential;
  let adminToken: string;
  let admin: { email: string; password: string };

  beforeAll(async () => {
    infra = await isolatedInfra();
    const keys = await testKeyRing();
    events = await AuthEvents.connect(infra.natsUrl, infra.bus, keys.ring);
    const proxy = async (name: string, url: string) => (proxies[name] = await TcpProxy.to(url, await freePort())).via(url);
    const gatewayEnv = infra.env({
      CREDENTIAL_KEYRING: keys.env,
      DATABASE_URL: await proxy('gateway-postgres', infra.databaseUrl),
      REDIS_URL: await proxy('gateway-redis', infra.redisUrl),
      NATS_URL: await proxy('gateway-nats', infra.natsUrl),
    });
    const authExtra = { REDIS_URL: await proxy('auth-redis', infra.redisUrl), NATS_URL: await proxy('auth-nats', infra.natsUrl) };
    const vaultEnv = infra.env({ VAULT_ROOT_KEYRING: ringEntry('k1'), NATS_URL: await proxy('vault-nats', infra.natsUrl) });
    const ingestEnv = infra.env({ DATABASE_URL: await proxy('ingest-postgres', infra.databaseUrl) });
    const [gateway, auth, vault, ingest] = await Promise.all([
      startReadyApp('gateway', gatewayEnv),
      startAuth(infra, authExtra),
      startReadyApp('vault', vaultEnv),
      startReadyApp('ingest', ingestEnv),
    ]);
    processes.push(gateway.process, auth.process, vault.process, ingest.process);
    Object.assign(ports, { gateway: gateway.port, vault: vault.port, ingest: ingest.port, auth: Number(new URL(auth.base).port) });
    authBase = auth.base;

    credential = await events.createCredential();
    await eventually(async () => (await signedRequest(ports.gateway, credential, { target: '/meter/v1/devices' })).status === 200, 10_000, 'credential known');
    db = await authDataSource({ DATABASE_URL: infra.databaseUrl }, 'readiness-test');
    admin = await newOrg(db, { fastHash: true });
    adminToken = await login(authBase, admin.email, admin.password);
  });

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await Promise.all(Object.values(proxies).map((p) => p.close()));
    await events?.close();
    await db?.destroy();
    await infra?.cleanup();
  });

  it('gateway: without Redis and NATS it still answers signed requests and says degraded; without Postgres it is not ready', async () => {
    await proxies['gateway-redis'].cut();
    await proxies['gateway-nats'].cut();
    const degraded = await readyzUntil(ports.gateway, 'gateway degraded by redis and nats', (r) => r.body.degraded?.length === 2);
    expect(degraded.status).toBe(200);
    expect(degraded.body).toMatchObject({ status: 'degraded', limiter: 'in-process', checks: { postgres: { status: 'up' }, credentials: { status: 'up' } } });
    expect([...degraded.body.degraded].sort()).toEqual(['nats', 'redis']);
    expect(await dependencyUp(ports.gateway, 'redis')).toBe('0');
    // The in-process limiter and the credential view it holds keep serving.
    expect((await signedRequest(ports.gateway, credential, { target: '/meter/v1/devices' })).status).toBe(200);

    await proxies['gateway-redis'].open();
    await proxies['gateway-nats'].open();
    await readyzUntil(ports.gateway, 'gateway ready again', (r) => r.status === 200 && r.body.status === 'ready');

    await proxies['gateway-postgres'].cut();
    const down = await readyzUntil(ports.gateway, 'gateway not ready without postgres', (r) => r.status === 503);
    expect(down.body).toMatchObject({ code: 'not_ready', failed: ['postgres'], checks: { postgres: { status: 'down', required: true } } });
    expect(await dependencyUp(ports.gateway, 'postgres')).toBe('0');
    await proxies['gateway-postgres'].open();
    await readyzUntil(ports.gateway, 'gateway ready after postgres', (r) => r.status === 200 && r.body.status === 'ready');
  });

  it('auth: without Redis and NATS it says degraded and serves, pausing only logins (503 throttle_unavailable)', async () => {
    await proxies['auth-redis'].cut();
    await proxies['auth-nats'].cut();
    try {
      const degraded = await readyzUntil(ports.auth, 'auth degraded by redis and nats', (r) => r.body.degraded?.length === 2);
      expect(degraded.status).toBe(200);
      expect([...degraded.body.degraded].sort()).toEqual(['nats', 'redis']);
      expect((await call(authBase, 'GET', '/org-api-credentials', { token: adminToken })).status).toBe(200);
      const loginAttempt = await call(authBase, 'POST', '/login', { body: { email: admin.email, password: admin.password } });
      expect(loginAttempt.status).toBe(503);
      expect(loginAttempt.body.code).toBe('throttle_unavailable');
    } finally {
      await proxies['auth-redis'].open();
      await proxies['auth-nats'].open();
    }
    await readyzUntil(ports.auth, 'auth ready again', (r) => r.status === 200 && r.body.status === 'ready');
  });

  it.each([
    ['vault', 'NATS, its only interface', 'nats', 'postgres'],
    ['ingest', 'Postgres, where it stores the readings', 'postgres', 'nats'],
  ] as const)('%s: not ready without %s', async (app, _why, missing, other) => {
    await proxies[`${app}-${missing}`].cut();
    const down = await readyzUntil(ports[app], `${app} not ready without ${missing}`, (r) => r.status === 503);
    expect(down.body).toMatchObject({ failed: [missing], checks: { [other]: { status: 'up' } } });
    await proxies[`${app}-${missing}`].open();
    await readyzUntil(ports[app], `${app} ready again`, (r) => r.status === 200 && r.body.status === 'ready');
  });
});
