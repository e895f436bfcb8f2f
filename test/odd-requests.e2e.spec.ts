import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ECHO_LIMIT } from '@meter/http';
import { isolatedInfra, rawExchange, startReadyApp, type IsolatedInfra, type PlatformApp, type PlatformProcess } from '@meter/testing';
import { testKeyRing } from './gateway-support';
import { ringEntry } from './vault-fixtures';

const APPS: PlatformApp[] = ['gateway', 'auth', 'vault', 'ingest', 'integrations'];

/** The answer to raw bytes, its body read as a problem. */
async function exchange(port: number, bytes: string) {
  const answer = await rawExchange(port, bytes);
  return { ...answer, problem: JSON.parse(answer.body) as Record<string, unknown> };
}

/** Every process answers requests no client should send with small problem+json, and never lets one hold a connection. */
describe('odd requests to every built process', () => {
  let infra: IsolatedInfra;
  const ports = {} as Record<PlatformApp, number>;
  const processes: PlatformProcess[] = [];

  beforeAll(async () => {
    infra = await isolatedInfra();
    const keys = await testKeyRing();
    const env = infra.env({ CREDENTIAL_KEYRING: keys.env, VAULT_ROOT_KEYRING: ringEntry('k1'), HTTP_REQUEST_TIMEOUT_MS: '1000' });
    for (const app of APPS) {
      const started = await startReadyApp(app, env);
      processes.push(started.process);
      ports[app] = started.port;
    }
  });

  afterAll(async () => {
    for (const process of processes) await process.stop();
    await infra?.cleanup();
  });

  it.each(APPS)('%s: a 3,000-character path gets a small answer that does not repeat it', async (app) => {
    const answer = await exchange(ports[app], `GET /${'x'.repeat(3000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect([401, 404]).toContain(answer.status);
    expect(answer.head).toContain('content-type: application/problem+json');
    expect(String(answer.problem.detail).length).toBeLessThan(ECHO_LIMIT + 40);
    expect(answer.length).toBeLessThan(1500);
  });

  it.each(APPS)('%s: Expect: 200-ok gets 417 problem+json', async (app) => {
    const answer = await exchange(ports[app], 'GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\n\r\n');
    expect(answer.status).toBe(417);
    expect(answer.head).toContain('content-type: application/problem+json');
    expect(answer.problem).toMatchObject({ status: 417, code: 'expectation_failed', request_id: expect.any(String) });
  });

  it.each(APPS)('%s: a body that stops arriving gets 408 problem+json and the connection closes', async (app) => {
    const target = app === 'auth' ? '/login' : '/meter/v1/dashboard';
    const answer = await exchange(ports[app], `POST ${target} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":`);
    expect(answer.status).toBe(408);
    expect(answer.head).toContain('connection: close');
    expect(answer.problem).toMatchObject({ status: 408, code: 'request_timeout' });
  });
});
