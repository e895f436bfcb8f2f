import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { NatsConnection } from '@nats-io/nats-core';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectNats } from '@meter/messaging';
import { eventually, freePort, httpStatus, isolatedInfra, PlatformProcess, type IsolatedInfra } from '@meter/testing';
import { ringEntry, secretsFor, vaultRequest } from './vault-fixtures';

const run = promisify(execFile);
const ROOT = join(__dirname, '..');

interface RotateReport {
  key_ring: string;
  active_key_id: string;
  rewrapped: number;
  unchanged: number;
  unused_key_ids: string[];
  removed_key_ids: string[];
  unreadable: number;
  unreadable_by_key: Record<string, number>;
}

/** The command's report; fails on a non-zero exit. */
async function rotate(env: Record<string, string>, ...args: string[]) {
  const { stdout } = await run(process.execPath, [join(ROOT, 'dist/apps/cli/src/main.js'), 'keys', 'rotate-vault', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  return JSON.parse(stdout.trim()) as RotateReport;
}

/** The command's exit code and report, whatever the code. */
async function rotateWithExitCode(env: Record<string, string>): Promise<{ code: number; report: RotateReport }> {
  try {
    return { code: 0, report: await rotate(env) };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, report: JSON.parse(failed.stdout.trim()) as RotateReport };
  }
}

const DEV_KEY_ID = /^dev-\d{8}-[0-9a-f]{8}$/;

describe('rotating the vault root key ring', () => {
  let infra: IsolatedInfra;
  let nc: NatsConnection;
  let db: Client;
  let vault: PlatformProcess | undefined;
  let port: number;
  const secrets = secretsFor('rotation');
  const orgs = ['rot-a', 'rot-b', 'rot-c'];

  const startVault = async (env: Record<string, string>) => {
    vault = PlatformProcess.start('apps/vault/src/main.js', infra.env({ VAULT_PORT: String(port), ...env }));
    await eventually(async () => (await httpStatus(`http://127.0.0.1:${port}/readyz`)) === 200, 30_000, 'vault ready').catch((error: Error) => {
      throw new Error(`${error.message}\n${vault?.log()}`);
    });
    await eventually(async () => (await vaultRequest(nc, infra.bus, 'list', { org_id: 'warmup', actor: 't' })).ok, 10_000, 'vault answering');
  };
  const openAll = async (orgIds: string[]) => {
    const opened = [];
    for (const org of orgIds) {
      for (const type of ['s3_identity', 'api_token_identity'] as const) {
        opened.push(await vaultRequest(nc, infra.bus, 'open', { org_id: org, actor: 'worker', namespace: 'batch', type }));
      }
    }
    return opened;
  };
  const store = async (orgIds: string[]) => {
    for (const org of orgIds) {
      for (const type of ['s3_identity', 'api_token_identity'] as const) {
        const reply = await vaultRequest(nc, infra.bus, 'upsert', { org_id: org, actor: 'admin', entry: { namespace: 'batch', type, data: secrets[type] } });
        expect(reply.ok).toBe(true);
      }
    }
  };
  const rootKeyIds = async () =>
    (await db.query(`SELECT org_id, root_key_id FROM vault.data_keys ORDER BY org_id`)).rows as { org_id: string; root_key_id: string }[];

  beforeAll(async () => {
    infra = await isolatedInfra();
    port = await freePort();
    nc = await connectNats(infra.natsUrl, 'rotation-test');
    db = new Client({ connectionString: infra.databaseUrl });
    await db.connect();
  });

  afterAll(async () => {
    await vault?.stop();
    await db?.end();
    await nc?.close();
    await infra?.cleanup();
  });

  it('with VAULT_ROOT_KEYRING: re-wraps every data key, after which the old key can go and every entry opens', async () => {
    const k1 = ringEntry('k1');
    const k2 = ringEntry('k2');
    await startVault({ VAULT_ROOT_KEYRING: k1 });
    await store(orgs);
    expect((await rootKeyIds()).map((r) => r.root_key_id)).toEqual(['k1', 'k1', 'k1']);
    const sealedBefore = (await db.query(`SELECT id, sealed_data FROM vault.entries ORDER BY id`)).rows;

    // Step 1-2 of docs/vault.md: the new key first, the old one still there.
    await vault!.stop();
    await startVault({ VAULT_ROOT_KEYRING: `${k2},${k1}` });
    const report = await rotate(infra.env({ VAULT_ROOT_KEYRING: `${k2},${k1}` }));
    expect(report).toEqual({
      key_ring: 'VAULT_ROOT_KEYRING',
      active_key_id: 'k2',
      rewrapped: 3,
      unchanged: 0,
      unused_key_ids: ['k1'],
      removed_key_ids: [],
      unreadable: 0,
      unreadable_by_key: {},
    });
    expect((await rootKeyIds()).map((r) => r.root_key_id)).toEqual(['k2', 'k2', 'k2']);
    // Entries are not touched by a rotation.
    expect((await db.query(`SELECT id, sealed_data FROM vault.entries ORDER BY id`)).rows).toEqual(sealedBefore);
    // Running it again changes nothing.
    expect(await rotate(infra.env({ VAULT_ROOT_KEYRING: `${k2},${k1}` }))).toMatchObject({ rewrapped: 0, unchanged: 3 });

    // Step 4: the old key removed; everything still opens.
    await vault!.stop();
    await startVault({ VAULT_ROOT_KEYRING: k2 });
    const opened = await openAll(orgs);
    expect(opened.every((r) => r.ok)).toBe(true);
    expect(opened.map((r) => (r.ok ? r.result.data : undefined))).toEqual(orgs.flatMap(() => [secrets.s3_identity, secrets.api_token_identity]));

    // And the old key alone no longer opens anything: the wraps really moved.
    await vault!.stop();
    await startVault({ VAULT_ROOT_KEYRING: k1 });
    expect((await openAll(['rot-a']))[0]).toMatchObject({ ok: false, error: { code: 'unreadable' } });
    await vault!.stop();
    vault = undefined;
    const audit = await db.query(`SELECT payload FROM vault.audit_outbox WHERE payload->>'type' = 'data_key.rewrapped'`);
    expect(audit.rows.map((r) => r.payload.root_key_id)).toEqual(['k2', 'k2', 'k2']);
  }, 180_000); // four vault starts

  it('with the development key file: makes a new key, re-wraps while the vault runs, then removes the old key', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'vault-rotation-'));
    try {
      await db.query(`DELETE FROM vault.entries; DELETE FROM vault.data_keys`);
      const env = { DATA_DIR: dataDir };
      await startVault(env);
      const ringFile = join(dataDir, 'keys', 'vault_root_keyring');
      const [firstId] = (await readFile(ringFile, 'utf8')).trim().split(':');
      expect(firstId).toMatch(DEV_KEY_ID);
      await store(['dev-a', 'dev-b']);

      const rotated = await rotate(infra.env(env));
      expect(rotated).toMatchObject({ key_ring: 'development file', rewrapped: 2, unused_key_ids: [firstId], removed_key_ids: [], unreadable: 0 });
      const secondId = rotated.active_key_id;
      expect(secondId).toMatch(DEV_KEY_ID);
      expect(secondId).not.toBe(firstId);
      expect((await readFile(ringFile, 'utf8')).trim()).toMatch(new RegExp(`^${secondId}:[^,]+,${firstId}:`));
      // The running vault picks up the new key without a restart, and wraps new data keys under it.
      expect((await openAll(['dev-a', 'dev-b'])).every((r) => r.ok)).toBe(true);
      await store(['dev-c']);
      expect((await rootKeyIds()).map((r) => r.root_key_id)).toEqual([secondId, secondId, secondId]);

      const removed = await rotate(infra.env(env), '--rewrap-only', '--remove-old');
      expect(removed).toMatchObject({ active_key_id: secondId, rewrapped: 0, removed_key_ids: [firstId], unused_key_ids: [] });
      expect((await readFile(ringFile, 'utf8')).trim()).toMatch(new RegExp(`^${secondId}:[^,]+$`));

      await vault!.stop();
      await startVault(env);
      const opened = await openAll(['dev-a', 'dev-b', 'dev-c']);
      expect(opened.every((r) => r.ok)).toBe(true);
      expect(vault!.log()).not.toContain(secrets.api_token_identity.token);
    } finally {
      await vault?.stop();
      vault = undefined;
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 180_000);

  it('counts the data keys the ring does not unwrap, even under a key id it has, and exits 1', async () => {
    await db.query(`DELETE FROM vault.entries; DELETE FROM vault.data_keys`);
    // Two rings that both call their key k1, as development rings did before key ids were unique.
    const [mine, theirs] = [ringEntry('k1'), ringEntry('k1')];
    await startVault({ VAULT_ROOT_KEYRING: theirs });
    await store(['other-checkout']);
    await vault!.stop();
    await startVault({ VAULT_ROOT_KEYRING: mine });
    await store(['this-checkout']);
    await vault!.stop();
    vault = undefined;

    const { code, report } = await rotateWithExitCode(infra.env({ VAULT_ROOT_KEYRING: mine }));
    expect(code).toBe(1);
    expect(report).toMatchObject({ active_key_id: 'k1', rewrapped: 0, unchanged: 1, unreadable: 1, unreadable_by_key: { k1: 1 } });
  }, 120_000);

  it('refuses --remove-old when the ring comes from the environment', async () => {
    await expect(rotate(infra.env({ VAULT_ROOT_KEYRING: ringEntry('k1') }), '--remove-old')).rejects.toThrow(/remove the reported keys from the secret/);
  });
});
