import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import type { Msg } from '@nats-io/nats-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BusNames, platformStreams } from '@meter/contracts';
import {
  eventually,
  freePort,
  httpStatus,
  isolatedInfra,
  NATS_USER_PASSWORDS,
  natsServerBinary,
  PlatformProcess,
  PrivateNats,
  requestError,
  subscribeOutcome,
  type IsolatedInfra,
  type NatsUser,
} from '@meter/testing';
import { authDataSource, call, login, newOrg, startAuth } from './auth-support';
import { ringEntry, secretNeedles, secretsFor, vaultRequest } from './vault-fixtures';

/** A private nats-server runs the deploy/ permissions file as written; without the binary there is nothing to run it on. */
describe.skipIf(!natsServerBinary)('NATS permissions of deploy/base/nats/vault-permissions.conf', () => {
  const bus = new BusNames('');
  let infra: IsolatedInfra;
  let nats: PrivateNats;
  let url: string;
  let vault: PlatformProcess;
  const secrets = secretsFor('perm');

  const as = (user: NatsUser, options: { inboxPrefix?: string } = {}) => nats.as(user, options);

  beforeAll(async () => {
    infra = await isolatedInfra();
    // Clients without credentials are the vault, so the unchanged vault process runs under its permissions.
    nats = await PrivateNats.start({ jetstream: true, noAuthUser: 'vault' });
    url = nats.url;
    const vaultPort = await freePort();
    vault = PlatformProcess.start(
      'apps/vault/src/main.js',
      infra.env({ NATS_URL: url, BUS_PREFIX: '', VAULT_PORT: String(vaultPort), VAULT_ROOT_KEYRING: ringEntry('k1') }),
    );
    await eventually(async () => (await httpStatus(`http://127.0.0.1:${vaultPort}/readyz`)) === 200, 30_000, 'vault ready').catch((error: Error) => {
      throw new Error(`${error.message}\n${vault.log()}`);
    });
    const auth = await as('auth');
    await eventually(async () => (await vaultRequest(auth, bus, 'list', { org_id: 'warmup', actor: 't' })).ok, 10_000, 'vault answering');
  });

  afterAll(async () => {
    await vault?.stop();
    await nats?.stop();
    await infra?.cleanup();
  });

  it('lets the vault run under its own permissions: stream, subscriptions, replies and audit events', async () => {
    const auth = await as('auth');
    const stored = await vaultRequest(auth, bus, 'upsert', {
      org_id: 'perm-org',
      actor: 'admin',
      entry: { namespace: 'batch', type: 's3_identity', data: secrets.s3_identity },
    });
    expect(stored).toMatchObject({ ok: true, result: { version: 1 } });
    expect(await vaultRequest(auth, bus, 'list', { org_id: 'perm-org', actor: 'admin' })).toMatchObject({
      ok: true,
      result: { entries: [{ type: 's3_identity' }] },
    });
  });

  it('keeps auth to the management subjects: no subscribing to vault.>, no opening entries, no forged audit events', async () => {
    const auth = await as('auth');
    expect(await subscribeOutcome(auth, 'vault.rpc.upsert')).toMatch(/Permissions Violation for Subscription/);
    expect(await subscribeOutcome(await as('auth'), 'vault.>')).toMatch(/Permissions Violation for Subscription/);
    expect(await subscribeOutcome(await as('auth'), '_INBOX_integration.>')).toMatch(/Permissions Violation for Subscription/);
    expect(await requestError(await as('auth'), 'vault.internal.open')).toMatch(/Permissions Violation for Publish to "vault.internal.open"/);
    expect(await requestError(await as('auth'), 'vault.audit.entry.deleted')).toMatch(/Permissions Violation for Publish/);
  });

  it('lets integration workers open entries on their private inbox, and nothing else', async () => {
    const worker = await as('integration', { inboxPrefix: '_INBOX_integration' });
    const opened = await vaultRequest(worker, bus, 'open', { org_id: 'perm-org', actor: 'worker-1', namespace: 'batch', type: 's3_identity' });
    expect(opened).toMatchObject({ ok: true, result: { data: secrets.s3_identity } });
    expect(await requestError(worker, 'vault.rpc.list')).toMatch(/Permissions Violation for Publish to "vault.rpc.list"/);
    expect(await subscribeOutcome(await as('integration', { inboxPrefix: '_INBOX_integration' }), 'vault.internal.open')).toMatch(/Permissions Violation/);
    // Without its private inbox prefix a worker cannot even receive the answer.
    expect(await requestError(await as('integration'), 'vault.internal.open')).toMatch(/Permissions Violation for Subscription/);
  });

  it("keeps the vault's answers to auth on auth's own inbox prefix, which no other process may subscribe to", async () => {
    const auth = await as('auth', { inboxPrefix: '_INBOX_auth' });
    expect(await vaultRequest(auth, bus, 'list', { org_id: 'perm-org', actor: 'admin' })).toMatchObject({
      ok: true,
      result: { entries: [{ type: 's3_identity' }] },
    });
    expect(await subscribeOutcome(await as('gateway'), '_INBOX_auth.>')).toMatch(/Permissions Violation for Subscription/);
    expect(await subscribeOutcome(await as('integration', { inboxPrefix: '_INBOX_integration' }), '_INBOX_auth.>')).toMatch(
      /Permissions Violation for Subscription/,
    );
    // The auth service itself, as deploy/ runs it (its user, its inbox prefix), gets the vault's answers.
    const db = await authDataSource({ DATABASE_URL: infra.databaseUrl }, 'vault-permissions-test');
    const service = await startAuth(infra, {
      NATS_URL: url,
      BUS_PREFIX: '',
      NATS_USER: 'auth',
      NATS_PASSWORD: NATS_USER_PASSWORDS.auth,
      NATS_INBOX_PREFIX: '_INBOX_auth',
    });
    // Auth may watch its own prefix: the service's replies must arrive there.
    const watcher = await as('auth');
    const answersToAuth: string[] = [];
    watcher.subscribe('_INBOX_auth.>', { callback: (_error: Error | null, message: Msg) => void answersToAuth.push(message.subject) });
    await watcher.flush();
    try {
      const admin = await newOrg(db, { fastHash: true });
      const token = await login(service.base, admin.email, admin.password);
      const stored = await call(service.base, 'PATCH', '/organization-vault', {
        token,
        body: { namespace: 'batch', type: 's3_identity', data: secrets.s3_identity },
      });
      expect(stored.status, JSON.stringify(stored.body)).toBe(200);
      const listed = await call(service.base, 'GET', '/organization-vault', { token });
      expect(listed.status).toBe(200);
      expect(JSON.stringify(listed.body)).toContain('s3_identity');
      await watcher.flush();
      expect(answersToAuth.length).toBeGreaterThanOrEqual(2);
    } finally {
      await service.process.stop();
      await db.destroy();
    }
  });

  it('keeps every other process off the vault, even with a wildcard subscription', async () => {
    const gateway = await as('gateway');
    expect(await subscribeOutcome(gateway, 'vault.rpc.*')).toMatch(/Permissions Violation for Subscription/);
    const gateway2 = await as('gateway');
    expect(await requestError(gateway2, 'vault.rpc.list')).toMatch(/Permissions Violation for Publish/);
    expect(await requestError(await as('gateway'), 'vault.internal.open')).toMatch(/Permissions Violation for Publish/);

    const snooper = await as('gateway');
    const seen: Msg[] = [];
    snooper.subscribe('>', {
      callback: (_error: Error | null, msg: Msg) => {
        if (msg) seen.push(msg);
      },
    });
    await snooper.flush();
    // Auth as deploy/ runs it, on its own inbox prefix: its answers must not reach the snooper either.
    const auth = await as('auth', { inboxPrefix: '_INBOX_auth' });
    const worker = await as('integration', { inboxPrefix: '_INBOX_integration' });
    await vaultRequest(auth, bus, 'upsert', {
      org_id: 'perm-org',
      actor: 'admin',
      entry: { namespace: 'batch', type: 'api_token_identity', data: secrets.api_token_identity },
    });
    const opened = await vaultRequest(worker, bus, 'open', { org_id: 'perm-org', actor: 'worker-1', namespace: 'batch', type: 'api_token_identity' });
    expect(opened.ok).toBe(true);
    await snooper.flush();
    expect(seen.filter((m) => /^(vault\.|_INBOX_integration\.|_INBOX_auth\.)/.test(m.subject)).map((m) => m.subject)).toEqual([]);
    const text = seen.map((m) => m.string()).join('\n');
    for (const needle of [...secretNeedles(secrets.s3_identity), ...secretNeedles(secrets.api_token_identity)]) expect(text).not.toContain(needle);
  });

  it('lets nobody but the vault purge, delete or change the audit stream', async () => {
    const stream = platformStreams(bus).vaultAudit.name;
    const auth = await as('auth');
    await vaultRequest(auth, bus, 'upsert', {
      org_id: 'audit-org',
      actor: 'admin',
      entry: { namespace: 'a', type: 'api_token_identity', data: { token: 'audit-token-value' } },
    });
    await eventually(async () => (await (await jetstreamManager(auth)).streams.info(stream)).state.messages > 0, 10_000, 'audit events relayed');
    for (const user of ['auth', 'gateway'] as const) {
      const jsm = await jetstreamManager(await as(user));
      const before = (await jsm.streams.info(stream)).state;
      await expect(jsm.streams.purge(stream), `${user} purge`).rejects.toThrow(/Permissions Violation for Publish/);
      await expect(jsm.streams.deleteMessage(stream, 1), `${user} delete message`).rejects.toThrow(/Permissions Violation for Publish/);
      await expect(jsm.streams.delete(stream), `${user} delete`).rejects.toThrow(/Permissions Violation for Publish/);
      // Nothing removed. (The vault's relay may still be adding the audit events of the requests above.)
      const after = (await jsm.streams.info(stream)).state;
      expect({ first: after.first_seq, deleted: after.num_deleted ?? 0 }).toEqual({ first: before.first_seq, deleted: before.num_deleted ?? 0 });
      expect(after.messages).toBeGreaterThanOrEqual(before.messages);
    }
  });

  it('leaves no plaintext in the JetStream store files, which hold the audit events', async () => {
    const auth = await as('auth');
    const listed = await vaultRequest(auth, bus, 'list', { org_id: 'perm-org', actor: 'admin' });
    const ids: string[] = listed.ok ? listed.result.entries.map((e: { id: string }) => e.id) : [];
    expect(ids).toHaveLength(2);
    const store = await eventually(
      async () => {
        const text = await readTree(join(nats.dir, 'js'));
        return ids.every((id) => text.includes(id)) && text.includes('entry.opened') ? text : false;
      },
      10_000,
      'audit events in the JetStream store',
    );
    for (const needle of [...secretNeedles(secrets.s3_identity), ...secretNeedles(secrets.api_token_identity)]) {
      expect(store).not.toContain(needle);
      expect(vault.log()).not.toContain(needle);
    }
  });
});

async function readTree(path: string): Promise<string> {
  const entries = await readdir(path, { withFileTypes: true });
  const parts = await Promise.all(
    entries.map((entry) => (entry.isDirectory() ? readTree(join(path, entry.name)) : readFile(join(path, entry.name), 'latin1'))),
  );
  return parts.join('\n');
}
