import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort, isolatedInfra, rawExchange, startReadyApp, TcpProxy, type IsolatedInfra, type PlatformProcess } from '@meter/testing';
import { authDataSource, call, login, newOrg, startAuth } from './auth-support';
import { signedRequest, testKeyRing, type RawResponse } from './gateway-support';
import { DocumentedApi, type SeenResponse } from './openapi-conformance';

/**
 * The answers every route may give besides its own, as the running gateway and auth give
 * them, match the committed documents: 503 `database_unavailable` while Postgres is away
 * (reached through a proxy the test cuts), and the platform's 408, 414 and 417.
 */
describe('docs/openapi/*.json describe the answers every route shares', () => {
  const gatewayApi = new DocumentedApi('gateway');
  const managementApi = new DocumentedApi('management');
  let infra: IsolatedInfra;
  let proxy: TcpProxy;
  let db: DataSource;
  let auth: Awaited<ReturnType<typeof startAuth>>;
  let gateway: { process: PlatformProcess; port: number };
  let credential: { accessKey: string; secretKey: string; id: string };
  let token: string;

  const fromRaw = (response: RawResponse): SeenResponse => {
    const header = (name: string) => {
      const value = response.headers[name.toLowerCase()];
      return Array.isArray(value) ? value.join(', ') : value;
    };
    return { status: response.status, header, body: response.text ? JSON.parse(response.text) : undefined };
  };
  /** An answer off the socket: its status line, headers and body. */
  const fromSocket = async (port: number, bytes: string): Promise<SeenResponse> => {
    const answer = await rawExchange(port, bytes);
    const headers = new Map(
      answer.head
        .split('\r\n')
        .slice(1)
        .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()] as const),
    );
    return { status: answer.status, header: (name) => headers.get(name.toLowerCase()), body: answer.body ? JSON.parse(answer.body) : undefined };
  };

  beforeAll(async () => {
    infra = await isolatedInfra();
    const keys = await testKeyRing();
    proxy = await TcpProxy.to(infra.databaseUrl, await freePort());
    const env = { CREDENTIAL_KEYRING: keys.env, DATABASE_URL: proxy.via(infra.databaseUrl), HTTP_REQUEST_TIMEOUT_MS: '1000' };
    db = await authDataSource({ DATABASE_URL: infra.databaseUrl }, 'platform-answers-test');
    [auth, gateway] = await Promise.all([startAuth(infra, env), startReadyApp('gateway', infra.env(env))]);
    const org = await newOrg(db, { fastHash: true });
    token = await login(auth.base, org.email, org.password);
    const created = await call(auth.base, 'POST', '/org-api-credentials', {
      token,
      body: { name: 'answers', type: 'secret', scopes: ['meter:consumption:read'] },
    });
    expect(created.status).toBe(201);
    credential = { accessKey: created.body.access_key as string, secretKey: created.body.secret_key as string, id: created.body.id as string };
    await eventually(
      async () => (await signedRequest(gateway.port, credential, { target: '/meter/v1/devices' })).status === 200,
      10_000,
      'the gateway knows the credential',
    );
  }, 120_000);

  afterAll(async () => {
    await Promise.all([gateway?.process.stop(), auth?.process.stop()]);
    await proxy?.close();
    await db?.destroy();
    await infra?.cleanup();
  });

  it('documents 503 database_unavailable as every route answers it while Postgres is away', async () => {
    await proxy.cut();
    try {
      const gatewayRoutes: [string, string, string, string?][] = [
        ['GET', '/meter/v1/devices', '/meter/v1/devices'],
        ['GET', '/meter/v1/projection/{deviceId}', '/meter/v1/projection/1'],
        ['POST', '/meter/v1/dashboard', '/meter/v1/dashboard', JSON.stringify({ devices: [{ device_id: 1 }] })],
      ];
      for (const [method, path, target, body] of gatewayRoutes) {
        const seen = await eventually(
          async () => {
            const answer = fromRaw(await signedRequest(gateway.port, credential, { method, target, body }));
            return answer.status === 503 ? answer : false;
          },
          10_000,
          `${method} ${target} refused`,
        );
        expect(seen.body).toMatchObject({ code: 'database_unavailable' });
        expect(gatewayApi.responseProblems(method, path, seen), `${method} ${target}`).toEqual([]);
      }
      const managementRoutes: [string, string, string, unknown?][] = [
        ['POST', '/login', '/login', { email: 'nobody@example.com', password: 'not a password' }],
        ['GET', '/org-api-credentials', '/org-api-credentials'],
        ['DELETE', '/org-api-credentials/{id}', `/org-api-credentials/${credential.id}`],
        ['GET', '/organization-vault', '/organization-vault'],
      ];
      for (const [method, path, target, body] of managementRoutes) {
        const answer = await call(auth.base, method, target, { token: path === '/login' ? undefined : token, body });
        const seen = { status: answer.status, header: (name: string) => answer.headers.get(name), body: answer.body };
        expect(seen.body, `${method} ${target}`).toMatchObject({ code: 'database_unavailable' });
        expect(managementApi.responseProblems(method, path, seen), `${method} ${target}`).toEqual([]);
      }
    } finally {
      await proxy.open();
    }
  }, 60_000);

  it("documents the platform's 417, 414 and 408 as the routes answer them", async () => {
    const cases: [DocumentedApi, number, string, string, string][] = [
      [gatewayApi, gateway.port, 'GET', '/meter/v1/devices', 'GET /meter/v1/devices HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\n\r\n'],
      [managementApi, Number(new URL(auth.base).port), 'GET', '/org-api-credentials', 'GET /org-api-credentials HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\n\r\n'],
      [
        gatewayApi,
        gateway.port,
        'GET',
        '/meter/v1/projection/{deviceId}',
        `GET /meter/v1/projection/${'1'.repeat(3000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      ],
      [
        managementApi,
        Number(new URL(auth.base).port),
        'GET',
        '/org-api-credentials/{id}',
        `GET /org-api-credentials/${'c'.repeat(3000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      ],
      [
        gatewayApi,
        gateway.port,
        'POST',
        '/meter/v1/dashboard',
        'POST /meter/v1/dashboard HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"devices":',
      ],
      [
        managementApi,
        Number(new URL(auth.base).port),
        'POST',
        '/login',
        'POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":',
      ],
    ];
    const statuses: number[] = [];
    for (const [api, port, method, path, bytes] of cases) {
      const seen = await fromSocket(port, bytes);
      statuses.push(seen.status);
      expect(api.responseProblems(method, path, seen), `${method} ${path} -> ${seen.status} ${JSON.stringify(seen.body)}`).toEqual([]);
    }
    expect(statuses).toEqual([417, 417, 414, 414, 408, 408]);
  });
});
