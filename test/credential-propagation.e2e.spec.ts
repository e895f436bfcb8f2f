import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedInfra, startReadyApp, type IsolatedInfra, type PlatformProcess } from '@meter/testing';
import { authDataSource, call, login, newOrg, startAuth } from './auth-support';
import { signedRequest, testKeyRing } from './gateway-support';

const ITERATIONS = 30;

/**
 * What the management API answers holds for the very next request, on every
 * gateway replica: a credential is usable right after its 201 (a gateway
 * that has not seen its event asks auth), fenced right after the PATCH and
 * refused right after the 204 (auth stamps the change in Redis before it
 * answers, and each gateway compares the stamp in its rate-limit script).
 */
describe('credential changes hold for the first request after the answer, on every gateway', () => {
  let infra: IsolatedInfra;
  let db: DataSource;
  let auth: Awaited<ReturnType<typeof startAuth>>;
  const gateways: { process: PlatformProcess; port: number }[] = [];
  let token: string;

  beforeAll(async () => {
    infra = await isolatedInfra();
    const keys = await testKeyRing();
    db = await authDataSource({ DATABASE_URL: infra.databaseUrl }, 'propagation-test');
    const env = {
      CREDENTIAL_KEYRING: keys.env,
      TRUSTED_PROXIES: '127.0.0.1/32,::1/128',
      RATE_LIMIT_PER_MINUTE: '100000',
      AUTH_FAILURE_LIMIT_PER_MINUTE: '100000',
    };
    const [started, ...replicas] = await Promise.all([
      startAuth(infra, { CREDENTIAL_KEYRING: keys.env }),
      startReadyApp('gateway', infra.env(env)),
      startReadyApp('gateway', infra.env(env)),
    ]);
    auth = started as Awaited<ReturnType<typeof startAuth>>;
    gateways.push(...(replicas as { process: PlatformProcess; port: number }[]));
    const org = await newOrg(db, { fastHash: true });
    token = await login(auth.base, org.email, org.password);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.process.stop()));
    await auth?.process.stop();
    await db?.destroy();
    await infra?.cleanup();
  });

  /** The same signed request to both replicas at once: status and problem code of each. */
  const onBoth = async (credential: { accessKey: string; secretKey: string }, from: string) =>
    Promise.all(
      gateways.map(async (g) => {
        const r = await signedRequest(g.port, credential, { target: '/meter/v1/devices', headers: { 'x-forwarded-for': from } });
        return r.status === 200 ? '200' : `${r.status} ${String(r.json().code)}`;
      }),
    );

  it(`creates, fences and revokes ${ITERATIONS} credentials, each change holding at once on both replicas`, async () => {
    for (let i = 0; i < ITERATIONS; i++) {
      const created = await call(auth.base, 'POST', '/org-api-credentials', {
        token,
        body: { name: `round ${i}`, type: 'secret', scopes: ['meter:consumption:read'] },
      });
      expect(created.status).toBe(201);
      const credential = { accessKey: created.body.access_key as string, secretKey: created.body.secret_key as string };
      expect({ i, created: await onBoth(credential, '203.0.113.1') }).toEqual({ i, created: ['200', '200'] });

      const fenced = await call(auth.base, 'PATCH', `/org-api-credentials/${created.body.id}`, { token, body: { allowed_cidrs: ['192.0.2.0/24'] } });
      expect(fenced.status).toBe(200);
      expect({ i, fenced: await onBoth(credential, '203.0.113.1') }).toEqual({
        i,
        fenced: ['403 source_address_not_allowed', '403 source_address_not_allowed'],
      });

      const revoked = await call(auth.base, 'DELETE', `/org-api-credentials/${created.body.id}`, { token });
      expect(revoked.status).toBe(204);
      expect({ i, revoked: await onBoth(credential, '192.0.2.9') }).toEqual({ i, revoked: ['401 credential_revoked', '401 credential_revoked'] });
    }
  }, 120_000);

  it('asks auth once about an unknown key, however many requests carry it', async () => {
    const metric = async (port: number) => {
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      return Number(/^meter_gateway_credential_lookups_total\{outcome="unknown"\} (\d+)$/m.exec(text)?.[1] ?? 0);
    };
    const before = await metric(gateways[0].port);
    const stranger = { accessKey: 'sk_live_neverissued0000000000000000', secretKey: 'x'.repeat(43) };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        signedRequest(gateways[0].port, stranger, { target: '/meter/v1/devices' }).then((r) => `${r.status} ${String(r.json().code)}`),
      ),
    );
    expect(new Set(answers)).toEqual(new Set(['401 unknown_access_key']));
    expect((await metric(gateways[0].port)) - before).toBe(1);
  });

  it('answers an unknown key as before when auth is away, and keeps serving the credentials it holds', async () => {
    const created = await call(auth.base, 'POST', '/org-api-credentials', {
      token,
      body: { name: 'kept', type: 'secret', scopes: ['meter:consumption:read'] },
    });
    const credential = { accessKey: created.body.access_key as string, secretKey: created.body.secret_key as string };
    expect(await onBoth(credential, '203.0.113.1')).toEqual(['200', '200']);
    await auth.process.stop();
    const stranger = { accessKey: 'sk_live_neverissuedeither00000000000', secretKey: 'y'.repeat(43) };
    expect(await onBoth(stranger, '203.0.113.1')).toEqual(['401 unknown_access_key', '401 unknown_access_key']);
    expect(await onBoth(credential, '203.0.113.1')).toEqual(['200', '200']);
  });
});
