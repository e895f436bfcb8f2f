import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VAULT_ENTRY_FIELDS, VAULT_ENTRY_TYPES, VAULT_NON_SECRET_FIELDS, VAULT_QUEUE_GROUP, vaultSubject } from '@meter/contracts';
import { connectNats } from '@meter/messaging';
import { eventually, freePort, httpStatus, isolatedInfra, PlatformProcess, type IsolatedInfra } from '@meter/testing';
import type { DataSource } from 'typeorm';
import { authDataSource, call, login, newOrg, startAuth } from './auth-support';
import { ringEntry, secretNeedles, secretsFor } from './vault-fixtures';

describe('the management API vault routes, forwarded to the vault service', () => {
  let infra: IsolatedInfra;
  let db: DataSource;
  let auth: { process: PlatformProcess; base: string };
  let vault: PlatformProcess | undefined;
  let vaultEnv: Record<string, string>;
  let vaultPort: number;
  let tokenA: string;
  let tokenB: string;
  const secrets = secretsFor('http');

  const startVault = async () => {
    vault = PlatformProcess.start('apps/vault/src/main.js', vaultEnv);
    await eventually(async () => (await httpStatus(`http://127.0.0.1:${vaultPort}/readyz`)) === 200, 30_000, 'vault ready').catch((error: Error) => {
      throw new Error(`${error.message}\n${vault?.log()}`);
    });
    await eventually(async () => (await call(auth.base, 'GET', '/organization-vault', { token: tokenA })).status === 200, 10_000, 'vault answering');
  };

  beforeAll(async () => {
    infra = await isolatedInfra();
    db = await authDataSource({ DATABASE_URL: infra.databaseUrl }, 'vault-http-test');
    auth = await startAuth(infra);
    const [a, b] = [await newOrg(db, { fastHash: true }), await newOrg(db, { fastHash: true })];
    tokenA = await login(auth.base, a.email, a.password);
    tokenB = await login(auth.base, b.email, b.password);
    vaultPort = await freePort();
    vaultEnv = infra.env({ VAULT_PORT: String(vaultPort), VAULT_ROOT_KEYRING: ringEntry('k1') });
    await startVault();
  });

  afterAll(async () => {
    await vault?.stop();
    await auth?.process.stop();
    await db?.destroy();
    await infra?.cleanup();
  });

  it('needs the admin Bearer session on every route', async () => {
    for (const [method, path] of [
      ['GET', '/organization-vault'],
      ['PATCH', '/organization-vault'],
      ['DELETE', '/organization-vault/0b8f2f4e-4a52-4a8e-9f6e-6e0a1f0c2b11'],
    ] as const) {
      const response = await call(auth.base, method, path, method === 'PATCH' ? { body: { namespace: 'batch' } } : {});
      expect(response.status, `${method} ${path}`).toBe(401);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
    expect((await call(auth.base, 'GET', '/organization-vault', { token: 'mst_forged' })).status).toBe(401);
  });

  it.each(VAULT_ENTRY_TYPES)('PATCH stores a %s (200 {id}), GET lists its secrets masked and where it goes in clear', async (type) => {
    const stored = await call(auth.base, 'PATCH', '/organization-vault', { token: tokenA, body: { namespace: 'batch', type, data: secrets[type] } });
    expect(stored.status).toBe(200);
    expect(stored.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const again = await call(auth.base, 'PATCH', '/organization-vault', { token: tokenA, body: { namespace: 'batch', type, data: secrets[type] } });
    expect(again.body.id).toBe(stored.body.id);
    const list = await call(auth.base, 'GET', '/organization-vault', { token: tokenA });
    expect(list.status).toBe(200);
    const entry = list.body.entries.find((e: { id: string }) => e.id === stored.body.id);
    expect(entry).toEqual({
      id: stored.body.id,
      namespace: 'batch',
      type,
      version: 2,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      fields: expect.any(Object),
    });
    expect(Object.keys(entry.fields).sort()).toEqual(Object.keys(VAULT_ENTRY_FIELDS[type]).sort());
    for (const needle of secretNeedles(secrets[type])) expect(JSON.stringify(list.body)).not.toContain(needle);
    for (const [name, value] of Object.entries(secrets[type])) {
      if (VAULT_NON_SECRET_FIELDS.has(name)) expect(entry.fields[name], name).toBe(value);
      else expect(entry.fields[name], name).toMatch(/^\*\*\*\*/);
    }
  });

  it('answers 400 validation_failed naming the field', async () => {
    const over = await call(auth.base, 'PATCH', '/organization-vault', {
      token: tokenA,
      body: { namespace: 'batch', type: 's3_identity', data: { ...secrets.s3_identity, secret_key: 'k'.repeat(2049), region: undefined } },
    });
    expect(over.status).toBe(400);
    expect(over.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(over.body).toMatchObject({ code: 'validation_failed', status: 400 });
    expect(over.body.errors).toEqual([
      { field: 'data.secret_key', message: expect.stringContaining('2048') },
      { field: 'data.region', message: 'is required' },
    ]);
    expect(JSON.stringify(over.body)).not.toContain(secrets.s3_identity.access_key);
    for (const body of [[1, 2], '"text"', 'null']) {
      const response = await call(auth.base, 'PATCH', '/organization-vault', { token: tokenA, body });
      expect(response.status, String(body)).toBe(400);
      expect(response.body.errors[0].field).toBe('body');
    }
    const unknownType = await call(auth.base, 'PATCH', '/organization-vault', { token: tokenA, body: { namespace: 'batch', type: 'x', data: {} } });
    expect(unknownType.body.errors).toEqual([{ field: 'type', message: expect.any(String) }]);
  });

  it('keeps organizations apart: another organization gets 404 and sees nothing', async () => {
    const mine = await call(auth.base, 'PATCH', '/organization-vault', {
      token: tokenA,
      body: { namespace: 'cross', type: 'api_token_identity', data: { token: 'cross-org-token-value' } },
    });
    expect((await call(auth.base, 'GET', '/organization-vault', { token: tokenB })).body).toEqual({ entries: [] });
    const foreign = await call(auth.base, 'DELETE', `/organization-vault/${mine.body.id}`, { token: tokenB });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('not_found');
    expect((await call(auth.base, 'DELETE', '/organization-vault/not-a-uuid', { token: tokenA })).status).toBe(404);
    const list = await call(auth.base, 'GET', '/organization-vault', { token: tokenA });
    expect(list.body.entries.map((e: { id: string }) => e.id)).toContain(mine.body.id);
  });

  it('DELETE answers 204 and the entry is gone (then 404)', async () => {
    const made = await call(auth.base, 'PATCH', '/organization-vault', {
      token: tokenA,
      body: { namespace: 'gone', type: 'api_token_identity', data: { token: 'deleted-token-value' } },
    });
    const deleted = await call(auth.base, 'DELETE', `/organization-vault/${made.body.id}`, { token: tokenA });
    expect(deleted.status).toBe(204);
    expect((await call(auth.base, 'GET', '/organization-vault', { token: tokenA })).body.entries.map((e: { id: string }) => e.id)).not.toContain(made.body.id);
    expect((await call(auth.base, 'DELETE', `/organization-vault/${made.body.id}`, { token: tokenA })).status).toBe(404);
  });

  it('answers 503 problem+json within a few seconds while the vault is down, and works again once it is back', async () => {
    await vault?.stop();
    for (const [method, path, body] of [
      ['GET', '/organization-vault', undefined],
      ['PATCH', '/organization-vault', { namespace: 'batch', type: 'api_token_identity', data: { token: 'while-down-token' } }],
      ['DELETE', '/organization-vault/0b8f2f4e-4a52-4a8e-9f6e-6e0a1f0c2b11', undefined],
    ] as const) {
      const started = Date.now();
      const response = await call(auth.base, method, path, { token: tokenA, body });
      expect(response.status, `${method} ${path}`).toBe(503);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(response.body).toMatchObject({ status: 503, code: 'vault_unavailable' });
      expect(Date.now() - started).toBeLessThan(5000);
    }
    expect(auth.process.log()).not.toContain('while-down-token');

    // A vault that takes the request but never answers: the timeout, not a hang.
    const silent = await connectNats(infra.natsUrl, 'silent-vault');
    silent.subscribe(vaultSubject(infra.bus, 'list'), { queue: VAULT_QUEUE_GROUP, callback: () => undefined });
    await silent.flush();
    const started = Date.now();
    const hanging = await call(auth.base, 'GET', '/organization-vault', { token: tokenA });
    expect(hanging.status).toBe(503);
    expect(hanging.body.code).toBe('vault_unavailable');
    expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
    expect(Date.now() - started).toBeLessThan(6000);
    await silent.close();

    await startVault();
    expect((await call(auth.base, 'GET', '/organization-vault', { token: tokenA })).status).toBe(200);
  }, 120_000); // stops and starts the vault

  it('never writes a secret to the auth log', () => {
    for (const needle of Object.values(secrets).flatMap(secretNeedles)) expect(auth.process.log()).not.toContain(needle);
  });
});
