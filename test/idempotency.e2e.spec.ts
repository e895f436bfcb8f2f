import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedInfra, type IsolatedInfra, type PlatformProcess } from '@meter/testing';
import { authDataSource, call, login, newOrg, startAuth } from './auth-support';

const SCOPE = 'meter:consumption:read';

/** `Idempotency-Key` on the management API's POST routes, against the built auth process and Postgres (contract section 13). */
describe('Idempotency-Key on the management API', () => {
  let infra: IsolatedInfra;
  let db: DataSource;
  let auth: { process: PlatformProcess; base: string };
  let tokenA: string;
  let tokenB: string;

  beforeAll(async () => {
    infra = await isolatedInfra();
    db = await authDataSource({ DATABASE_URL: infra.databaseUrl }, 'idempotency-test');
    auth = await startAuth(infra);
    const [orgA, orgB] = [await newOrg(db, { fastHash: true }), await newOrg(db, { fastHash: true })];
    tokenA = await login(auth.base, orgA.email, orgA.password);
    tokenB = await login(auth.base, orgB.email, orgB.password);
  });

  afterAll(async () => {
    await auth?.process.stop();
    await db?.destroy();
    await infra?.cleanup();
  });

  const create = (token: string, key: string | undefined, name: string, scopes = [SCOPE]) =>
    call(auth.base, 'POST', '/org-api-credentials', {
      token,
      body: { name, type: 'public', scopes },
      headers: key === undefined ? {} : { 'idempotency-key': key },
    });
  const named = async (token: string, name: string) =>
    ((await call(auth.base, 'GET', '/org-api-credentials', { token })).body.credentials as { name: string }[]).filter((c) => c.name === name);

  it('answers a repeat with the first answer and creates nothing more', async () => {
    const first = await create(tokenA, 'key-sequential', 'Sequential');
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await create(tokenA, 'key-sequential', 'Sequential');
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await named(tokenA, 'Sequential')).toHaveLength(1);
  });

  it('creates one resource for two concurrent repeats', async () => {
    const answers = await Promise.all([create(tokenA, 'key-concurrent', 'Concurrent'), create(tokenA, 'key-concurrent', 'Concurrent')]);
    expect(answers.map((a) => a.status)).toEqual([201, 201]);
    expect(answers[0].body.id).toBe(answers[1].body.id);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(1);
    expect(await named(tokenA, 'Concurrent')).toHaveLength(1);
  });

  it('refuses the same key with another body: 422 idempotency_key_reused', async () => {
    expect((await create(tokenA, 'key-reused', 'First body')).status).toBe(201);
    const reused = await create(tokenA, 'key-reused', 'Second body');
    expect(reused.status).toBe(422);
    expect(reused.body.code).toBe('idempotency_key_reused');
    expect(await named(tokenA, 'Second body')).toHaveLength(0);
  });

  it('keeps keys per organization', async () => {
    const a = await create(tokenA, 'key-shared', 'Shared key');
    const b = await create(tokenB, 'key-shared', 'Shared key');
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.body.id).not.toBe(a.body.id);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
  });

  it('keeps nothing for a failed request, so its corrected retry runs', async () => {
    const failed = await create(tokenA, 'key-failed', 'Corrected', ['meter:everything']);
    expect(failed.status).toBe(400);
    const retried = await create(tokenA, 'key-failed', 'Corrected');
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
  });

  it('refuses a malformed key naming the header, and runs requests without one as before', async () => {
    const long = await create(tokenA, 'k'.repeat(256), 'Too long key');
    expect(long.status).toBe(400);
    expect(long.body.errors).toEqual([expect.objectContaining({ field: 'Idempotency-Key' })]);
    expect((await create(tokenA, undefined, 'No key')).status).toBe(201);
    expect((await create(tokenA, undefined, 'No key')).status).toBe(201);
    expect(await named(tokenA, 'No key')).toHaveLength(2);
  });
});
