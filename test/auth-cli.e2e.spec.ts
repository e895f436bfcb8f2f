import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialSecretAad, platformStreams } from '@meter/contracts';
import { associatedData, openText, parseKeyRing, sodiumReady } from '@meter/crypto';
import { eventually, isolatedInfra, type IsolatedInfra, type PlatformProcess } from '@meter/testing';
import { call, login, startAuth, streamMessages } from './auth-support';

const ROOT = join(__dirname, '..');
const SCOPE = 'meter:consumption:read';
const DEV_KEY_ID = /^dev-\d{8}-[0-9a-f]{8}$/;

describe('the real CLI with the built auth process', () => {
  let infra: IsolatedInfra;
  let dataDir: string;
  let auth: { process: PlatformProcess; base: string };
  let token: string;
  let orgId: string;
  const live: { id: string; secret: string }[] = [];

  const cli = async (args: string[], extra: Record<string, string> = {}) => {
    try {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, [join(ROOT, 'dist/apps/cli/src/main.js'), ...args], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', ...infra.env({ DATA_DIR: dataDir, ...extra }) },
        timeout: 30_000,
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  };

  /** The last sealed secret of a credential on the stream (what a gateway would hold). */
  const sealedOnStream = async (credentialId: string) => {
    const messages = await streamMessages(infra.natsUrl, platformStreams(infra.bus).authEvents.name);
    const events = messages.map((m) => JSON.parse(m.data)).filter((e) => e.payload.credential_id === credentialId && e.payload.sealed_secret);
    return events.at(-1) as { type: string; payload: { sealed_secret: string } } | undefined;
  };

  beforeAll(async () => {
    await sodiumReady();
    infra = await isolatedInfra();
    dataDir = await mkdtemp(join(tmpdir(), 'auth-cli-'));
    auth = await startAuth(infra, { DATA_DIR: dataDir });
  });

  afterAll(async () => {
    await auth?.process.stop();
    await infra?.cleanup();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('org create prints {org_id, admin_email}, and that admin can log in', async () => {
    const email = 'Ops@Example.test';
    const result = await cli(['org', 'create', '--name', 'Acme Water', '--admin-email', email, '--admin-password', 'a long passphrase']);
    expect(result.code, result.stderr).toBe(0);
    const printed = JSON.parse(result.stdout);
    expect(printed).toEqual({ org_id: expect.stringMatching(/^org_[A-Za-z0-9_-]{22}$/), admin_email: 'ops@example.test' });
    expect(result.stdout).not.toContain('a long passphrase');
    orgId = printed.org_id;
    token = await login(auth.base, email, 'a long passphrase');

    const again = await cli(['org', 'create', '--name', 'Twice', '--admin-email', email, '--admin-password', 'a long passphrase']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already exists/);
  });

  it('through `npm run cli --`, as the README writes it, stdout is that one JSON object (no npm banner repeating the password)', async () => {
    const { stdout } = await promisify(execFile)(
      'npm',
      ['run', 'cli', '--', 'org', 'create', '--name', 'Via npm', '--admin-email', 'npm@example.test', '--admin-password', 'a long passphrase'],
      { cwd: ROOT, env: { ...process.env, ...infra.env({ DATA_DIR: dataDir }) }, timeout: 60_000 },
    );
    expect(JSON.parse(stdout)).toEqual({ org_id: expect.stringMatching(/^org_/), admin_email: 'npm@example.test' });
    expect(stdout).not.toContain('a long passphrase');
  });

  it('admin deactivate ends the sessions of that admin and stops their logins', async () => {
    const email = 'leaver@example.test';
    const created = await cli(['org', 'create', '--name', 'Leaving', '--admin-email', email, '--admin-password', 'a long passphrase']);
    expect(created.code, created.stderr).toBe(0);
    const session = await login(auth.base, email, 'a long passphrase');
    expect((await call(auth.base, 'GET', '/org-api-credentials', { token: session })).status).toBe(200);

    const result = await cli(['admin', 'deactivate', '--email', 'LEAVER@example.test']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ admin_id: expect.any(String), org_id: JSON.parse(created.stdout).org_id, deactivated: true });
    expect((await call(auth.base, 'GET', '/org-api-credentials', { token: session })).status).toBe(401);
    expect((await call(auth.base, 'POST', '/login', { body: { email, password: 'a long passphrase' } })).status).toBe(401);

    const again = await cli(['admin', 'deactivate', '--email', email]);
    expect(JSON.parse(again.stdout).deactivated).toBe(false);
    const unknown = await cli(['admin', 'deactivate', '--email', 'nobody@example.test']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no admin with email nobody@example.test/);
    expect((await cli(['admin', 'deactivate'])).code).toBe(2);
  });

  it('org create refuses bad usage with exit code 2 naming the option', async () => {
    const short = await cli(['org', 'create', '--name', 'X', '--admin-email', 'x@example.test', '--admin-password', 'short']);
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/--admin-password: must be at least 8 characters/);
    const missing = await cli(['org', 'create', '--name', 'X']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--admin-email/);
    const unknown = await cli(['org', 'create', '--bogus']);
    expect(unknown.code).toBe(2);
  });

  it('org create on a database without the auth tables says to migrate first', async () => {
    const bare = await isolatedInfra({ migrate: false });
    try {
      const result = await cli(['org', 'create', '--name', 'X', '--admin-email', 'x@example.test', '--admin-password', 'long enough'], {
        DATABASE_URL: bare.databaseUrl,
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/auth tables do not exist .*run `npm run migrate`/);
    } finally {
      await bare.cleanup();
    }
  });

  it('keys rotate-credentials (development) adds a key to the dev file and re-seals every live secret under it', async () => {
    for (const name of ['one', 'two', 'revoked']) {
      const response = await call(auth.base, 'POST', '/org-api-credentials', { token, body: { name, type: 'secret', scopes: [SCOPE] } });
      expect(response.status).toBe(201);
      live.push({ id: response.body.id, secret: response.body.secret_key });
    }
    const revoked = live.pop()!;
    expect((await call(auth.base, 'DELETE', `/org-api-credentials/${revoked.id}`, { token })).status).toBe(204);

    const before = parseKeyRing(await readFile(join(dataDir, 'keys', 'credential_keyring'), 'utf8'));
    expect(before.map((k) => k.id)).toEqual([expect.stringMatching(DEV_KEY_ID)]);
    const result = await cli(['keys', 'rotate-credentials']);
    expect(result.code, result.stderr).toBe(0);
    const ring = parseKeyRing(await readFile(join(dataDir, 'keys', 'credential_keyring'), 'utf8'));
    const rotatedId = ring[0]!.id;
    expect(ring.map((k) => k.id)).toEqual([expect.stringMatching(DEV_KEY_ID), before[0]!.id]);
    expect(rotatedId).not.toBe(before[0]!.id);
    expect(JSON.parse(result.stdout)).toEqual({
      mode: 'development',
      active_key: rotatedId,
      resealed: 2,
      sealed_by_key: { [rotatedId]: 2 },
      unreadable: 0,
      unreadable_by_key: {},
    });
    for (const credential of live) {
      const event = await eventually(
        async () => {
          const last = await sealedOnStream(credential.id);
          return last?.type === 'credential.secret_resealed' ? last : false;
        },
        5000,
        'secret_resealed on the stream',
      );
      expect(event.payload.sealed_secret.startsWith(`v1.${rotatedId}.`)).toBe(true);
      expect(openText(ring, event.payload.sealed_secret, associatedData(credentialSecretAad(orgId, credential.id)))).toBe(credential.secret);
    }
    // The auth process still holding only the first key keeps working: it seals new secrets under it, which every ring still opens.
    expect((await call(auth.base, 'POST', '/org-api-credentials', { token, body: { name: 'after', type: 'public', scopes: [SCOPE] } })).status).toBe(201);
  });

  it('keys rotate-credentials (environment) re-seals under the first key of CREDENTIAL_KEYRING, so older keys can be removed', async () => {
    const devRing = (await readFile(join(dataDir, 'keys', 'credential_keyring'), 'utf8')).trim();
    const k3 = randomBytes(32).toString('base64');
    const env = { CREDENTIAL_KEYRING: `k3:${k3},${devRing}` };
    const result = await cli(['keys', 'rotate-credentials'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      mode: 'environment',
      active_key: 'k3',
      resealed: 2,
      sealed_by_key: { k3: 2 },
      unreadable: 0,
      unreadable_by_key: {},
    });
    const onlyNew = parseKeyRing(`k3:${k3}`);
    for (const credential of live) {
      const event = await eventually(
        async () => {
          const last = await sealedOnStream(credential.id);
          return last?.payload.sealed_secret.startsWith('v1.k3.') ? last : false;
        },
        5000,
        'resealed under k3 on the stream',
      );
      expect(openText(onlyNew, event.payload.sealed_secret, associatedData(credentialSecretAad(orgId, credential.id)))).toBe(credential.secret);
    }
    const rerun = await cli(['keys', 'rotate-credentials'], env);
    expect(JSON.parse(rerun.stdout)).toMatchObject({ resealed: 0, sealed_by_key: { k3: 2 } });
    const check = await cli(['keys', 'rotate-credentials', '--check'], env);
    expect(check.code, check.stderr).toBe(0);
    expect(JSON.parse(check.stdout)).toEqual({ active_key: 'k3', sealed_by_key: { k3: 2 }, unreadable: 0, unreadable_by_key: {} });
  });

  it('keys rotate-credentials --check opens every secret: a ring whose k3 is another key reports them unreadable and exits 1', async () => {
    const otherK3 = { CREDENTIAL_KEYRING: `k3:${randomBytes(32).toString('base64')}` };
    const check = await cli(['keys', 'rotate-credentials', '--check'], otherK3);
    expect(check.code).toBe(1);
    expect(JSON.parse(check.stdout)).toEqual({ active_key: 'k3', sealed_by_key: { k3: 2 }, unreadable: 2, unreadable_by_key: { k3: 2 } });
    // Re-sealing with such a ring leaves what it cannot open alone, says so, and fails.
    const other = { CREDENTIAL_KEYRING: `k4:${randomBytes(32).toString('base64')}` };
    const reseal = await cli(['keys', 'rotate-credentials'], other);
    expect(reseal.code).toBe(1);
    expect(JSON.parse(reseal.stdout)).toMatchObject({ active_key: 'k4', resealed: 0, unreadable: 2, unreadable_by_key: { k3: 2 } });
  });
});
