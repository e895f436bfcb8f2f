import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Msg } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import type { DataSource } from 'typeorm';
import { EXPORT_OPERATIONS, integrationsSubject } from '@meter/contracts';
import { eventually, freePort, isolatedInfra, TcpProxy, type IsolatedInfra, type PlatformProcess } from '@meter/testing';
import { authDataSource, call, login, newOrg, startAuth } from './auth-support';

/**
 * With NATS known to be lost, the management API's routes forwarded over it
 * (integrations, webhook endpoints, vault) answer 503 with Retry-After at
 * once, not after their request timeout. The timeouts here are far longer
 * than `call`'s own 10 s limit, so an answer at all shows it did not wait them out.
 */
describe('management routes over a lost bus', () => {
  let infra: IsolatedInfra;
  let db: DataSource;
  let nats: TcpProxy;
  let auth: PlatformProcess;
  let base: string;
  let token: string;

  beforeAll(async () => {
    infra = await isolatedInfra();
    nats = await TcpProxy.to(infra.natsUrl, await freePort());
    const started = await startAuth(infra, {
      NATS_URL: nats.via(infra.natsUrl),
      INTEGRATIONS_REQUEST_TIMEOUT_MS: '60000',
      VAULT_REQUEST_TIMEOUT_MS: '30000',
    });
    auth = started.process;
    base = started.base;
    db = await authDataSource({ DATABASE_URL: infra.databaseUrl }, 'bus-outage-test');
    const admin = await newOrg(db, { fastHash: true });
    token = await login(base, admin.email, admin.password);
  });

  afterAll(async () => {
    await auth?.stop();
    await nats?.close();
    await db?.destroy();
    await infra?.cleanup();
  });

  it('answers 503 with Retry-After at once, and forwards again once NATS is back', async () => {
    await nats.cut();
    // Auth's readiness shows when it has seen the connection drop.
    await eventually(async () => ((await call(base, 'GET', '/readyz')).body?.degraded ?? []).includes('nats'), 20_000, 'auth sees NATS lost');
    const routes: [string, string, string][] = [
      ['GET', '/integrations', 'integrations_unavailable'],
      ['POST', '/integrations', 'integrations_unavailable'],
      ['GET', '/webhook-endpoints', 'integrations_unavailable'],
      ['GET', '/organization-vault', 'vault_unavailable'],
    ];
    for (const [method, path, code] of routes) {
      // call() gives up after 10 s: an answer means no 30 or 60 s request timeout was waited out.
      const body = method === 'POST' ? { name: 'forwarded unchecked' } : undefined;
      const answer = await call(base, method, path, { token, body });
      expect(answer.status, `${method} ${path}`).toBe(503);
      expect(answer.body.code, `${method} ${path}`).toBe(code);
      expect(answer.headers.get('retry-after'), `${method} ${path}`).toBe('5');
    }

    // Back on the bus, requests are sent again: this file answers the list itself.
    const responder = await connect({ servers: infra.natsUrl });
    try {
      responder.subscribe(integrationsSubject(infra.bus, EXPORT_OPERATIONS.list), {
        callback: (_error: Error | null, msg: Msg) => msg.respond(JSON.stringify({ ok: true, result: { integrations: [] } })),
      });
      await responder.flush();
      await nats.open();
      const listed = await eventually(
        async () => {
          const answer = await call(base, 'GET', '/integrations', { token });
          return answer.status === 200 ? answer : false;
        },
        30_000,
        'integrations listed again',
      );
      expect(listed.body).toEqual({ integrations: [] });
    } finally {
      await responder.close();
    }
  });
});
