import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@meter/testing';
import { authDataSource, call, login, newOrg, startAuth } from './auth-support';
import { signedRequest, startGateway, type GatewayUnderTest } from './gateway-support';

/** The contract between the two services: credentials made, fenced and revoked through the management API reach the gateway. */
describe('credentials from the auth service reach the gateway', () => {
  let stack: GatewayUnderTest;
  let db: DataSource;
  let auth: Awaited<ReturnType<typeof startAuth>>;
  let port: number;
  let token: string;

  beforeAll(async () => {
    stack = await startGateway({ env: { TRUSTED_PROXIES: '127.0.0.1/32,::1/128', GATEWAY_USAGE_REPORT_SECONDS: '1' } });
    port = stack.port;
    db = await authDataSource({ DATABASE_URL: stack.infra.databaseUrl }, 'gateway-auth-test');
    auth = await startAuth(stack.infra, { CREDENTIAL_KEYRING: stack.keys.env });
    const org = await newOrg(db, { fastHash: true });
    token = await login(auth.base, org.email, org.password);
  });

  afterAll(async () => {
    await auth?.process.stop();
    await db?.destroy();
    await stack?.stop();
  });

  /** A secret credential made through the management API. */
  const createCredential = async (name: string) => {
    const created = await call(auth.base, 'POST', '/org-api-credentials', { token, body: { name, type: 'secret', scopes: ['meter:consumption:read'] } });
    expect(created.status).toBe(201);
    return { id: created.body.id as string, accessKey: created.body.access_key as string, secretKey: created.body.secret_key as string };
  };

  it('admits a new credential, applies its allow-list and refuses it within a second of revocation', async () => {
    const credential = await createCredential('integration');
    const from = (address: string) => ({ 'x-forwarded-for': address });

    await eventually(
      async () => (await signedRequest(port, credential, { target: '/meter/v1/x', headers: from('203.0.113.1') })).status === 404,
      5000,
      'credential admitted',
    );

    const fenced = await call(auth.base, 'PATCH', `/org-api-credentials/${credential.id}`, { token, body: { allowed_cidrs: ['192.0.2.0/24'] } });
    expect(fenced.status).toBe(200);
    await eventually(
      async () => (await signedRequest(port, credential, { target: '/meter/v1/x', headers: from('203.0.113.1') })).status === 403,
      1000,
      'allow-list applied',
    );
    expect((await signedRequest(port, credential, { target: '/meter/v1/x', headers: from('192.0.2.9') })).status).toBe(404);

    const revoked = await call(auth.base, 'DELETE', `/org-api-credentials/${credential.id}`, { token });
    expect(revoked.status).toBe(204);
    const refused = await eventually(
      async () => {
        const r = await signedRequest(port, credential, { target: '/meter/v1/x', headers: from('192.0.2.9') });
        return r.status === 401 ? r : false;
      },
      1000,
      'revocation applied',
    );
    expect(refused.json().code).toBe('credential_revoked');
  });

  it("reports a credential's last accepted request back to auth as last_used_at", async () => {
    const credential = await createCredential('usage');
    const lastUsed = async () => {
      const list = await call(auth.base, 'GET', '/org-api-credentials', { token });
      return (list.body.credentials as { id: string; last_used_at: string | null }[]).find((c) => c.id === credential.id)!.last_used_at;
    };
    expect(await lastUsed()).toBeNull();

    const before = Date.now();
    await eventually(async () => (await signedRequest(port, credential, { target: '/meter/v1/devices' })).status === 200, 5000, 'credential admitted');
    const after = Date.now();
    const reported = await eventually(async () => (await lastUsed()) ?? false, 5000, 'last_used_at reported');
    expect(Date.parse(reported)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(reported)).toBeLessThanOrEqual(after);

    // A refused request (bad signature) is not a use.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await signedRequest(port, { ...credential, secretKey: `${credential.secretKey}x` }, { target: '/meter/v1/devices' })).status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await lastUsed()).toBe(reported);
  });
});
