import { headers, type NatsConnection } from '@nats-io/nats-core';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RPC_DEADLINE_HEADER, vaultSubject } from '@meter/contracts';
import { connectNats } from '@meter/messaging';
import { eventually, startReadyApp, type IsolatedInfra, type PlatformProcess } from '@meter/testing';
import type { DataSource } from 'typeorm';
import { call, login, newOrg, startIsolatedAuth, stopIsolatedAuth, type IsolatedAuth } from './auth-support';
import { ringEntry, vaultRequest } from './vault-fixtures';

/**
 * Every vault request carries its deadline: the vault refuses work past it
 * on receipt and again just before commit, so auth's 503 means "not done".
 */
describe('vault requests past their deadline change nothing', () => {
  let stack: Partial<IsolatedAuth> = {};
  let infra: IsolatedInfra;
  let vault: PlatformProcess;
  let vaultPort: number;
  let nc: NatsConnection;
  let pg: Client;
  let token: string;
  let orgId: string;

  const patch = (tokenValue: string) =>
    call(stack.auth!.base, 'PATCH', '/organization-vault', {
      token,
      body: { namespace: 'frozen', type: 'api_token_identity', data: { token: tokenValue } },
    });
  const entry = async (id: string) => (await pg.query('SELECT version FROM vault.entries WHERE id = $1', [id])).rows[0] as { version: number } | undefined;
  const audited = async (id: string, type: string) =>
    Number(
      (await pg.query(`SELECT count(*) AS n FROM vault.audit_outbox WHERE payload::jsonb->>'entry_id' = $1 AND payload::jsonb->>'type' = $2`, [id, type]))
        .rows[0].n,
    );
  const refusedLate = async (operation: string) => {
    const metrics = await (await fetch(`http://127.0.0.1:${vaultPort}/metrics`)).text();
    return new RegExp(`meter_vault_requests_total\\{operation="${operation}",outcome="deadline_exceeded"\\} 1\\b`).test(metrics);
  };

  beforeAll(async () => {
    // auth waits 1 s for the vault (VAULT_REQUEST_TIMEOUT_MS), so its requests carry a deadline 800 ms ahead.
    stack = await startIsolatedAuth({ VAULT_REQUEST_TIMEOUT_MS: '1000' });
    infra = stack.infra!;
    ({ process: vault, port: vaultPort } = await startReadyApp('vault', infra.env({ VAULT_ROOT_KEYRING: ringEntry('k1') })));
    const org = await newOrg(stack.db as DataSource, { fastHash: true });
    orgId = org.orgId;
    token = await login(stack.auth!.base, org.email, org.password);
    nc = await connectNats(infra.natsUrl, 'vault-deadline-test');
    pg = new Client({ connectionString: infra.databaseUrl });
    await pg.connect();
    await eventually(async () => (await call(stack.auth!.base, 'GET', '/organization-vault', { token })).status === 200, 10_000, 'vault answering');
  });

  afterAll(async () => {
    vault?.signal('SIGCONT');
    await pg?.end();
    await nc?.close();
    await vault?.stop();
    await stopIsolatedAuth(stack);
  });

  it('a PATCH and a DELETE answered 503 while the vault was frozen are not applied when it resumes', async () => {
    const made = await patch('before-freeze-token');
    expect(made.status).toBe(200);
    const id = made.body.id as string;

    vault.signal('SIGSTOP');
    try {
      const frozenPatch = await patch('while-frozen-token');
      expect(frozenPatch.status).toBe(503);
      expect(frozenPatch.body).toMatchObject({ code: 'vault_unavailable' });
      const frozenDelete = await call(stack.auth!.base, 'DELETE', `/organization-vault/${id}`, { token });
      expect(frozenDelete.status).toBe(503);
      expect(frozenDelete.body).toMatchObject({ code: 'vault_unavailable' });
    } finally {
      vault.signal('SIGCONT');
    }

    // The resumed vault reads both requests from its socket and refuses them as late.
    await eventually(async () => (await refusedLate('upsert')) && (await refusedLate('delete')), 15_000, 'both late requests refused');
    expect(await entry(id)).toEqual({ version: 1 });
    const opened = await vaultRequest(nc, infra.bus, 'open', { org_id: orgId, actor: 'worker', namespace: 'frozen', type: 'api_token_identity' });
    expect(opened).toMatchObject({ ok: true, result: { id, version: 1, data: { token: 'before-freeze-token' } } });
    expect(await audited(id, 'entry.updated')).toBe(0);
    expect(await audited(id, 'entry.deleted')).toBe(0);

    // A request in time works as before.
    const after = await patch('after-thaw-token');
    expect(after.status).toBe(200);
    expect(after.body.id).toBe(id);
    expect(await entry(id)).toEqual({ version: 2 });
  }, 60_000);

  it('rolls back a write whose deadline passes while its transaction waits, just before commit', async () => {
    const made = await vaultRequest(nc, infra.bus, 'upsert', {
      org_id: orgId,
      actor: 'admin',
      entry: { namespace: 'locked', type: 'api_token_identity', data: { token: 'locked-token-1' } },
    });
    if (!made.ok) throw new Error(`upsert failed: ${JSON.stringify(made)}`);
    const id = made.result.id as string;

    for (const [operation, payload] of [
      ['upsert', { org_id: orgId, actor: 'admin', entry: { namespace: 'locked', type: 'api_token_identity', data: { token: 'locked-token-2' } } }],
      ['delete', { org_id: orgId, actor: 'admin', entry_id: id }],
    ] as const) {
      // Another transaction holds the row, so the vault's transaction waits on it past the deadline.
      await pg.query('BEGIN');
      await pg.query('SELECT id FROM vault.entries WHERE id = $1 FOR UPDATE', [id]);
      const deadline = Date.now() + 1000;
      const reply = vaultRequest(nc, infra.bus, operation, payload, 20_000, deadline);
      await eventually(
        async () =>
          Number((await pg.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)).rows[0].n) ===
          1,
        10_000,
        `${operation} waiting on the row lock`,
      );
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now()) + 50));
      await pg.query('ROLLBACK');
      expect(await reply, operation).toMatchObject({ ok: false, error: { code: 'deadline_exceeded' } });
      expect(await entry(id), operation).toEqual({ version: 1 });
    }
    expect(await audited(id, 'entry.updated')).toBe(0);
    expect(await audited(id, 'entry.deleted')).toBe(0);

    // Without a lock in the way, the same requests with a deadline ahead are done.
    const inTime = await vaultRequest(nc, infra.bus, 'delete', { org_id: orgId, actor: 'admin', entry_id: id }, 5000, Date.now() + 4000);
    expect(inTime).toEqual({ ok: true, result: { id } });
    expect(await entry(id)).toBeUndefined();
  }, 60_000);

  it('refuses a deadline header that is not a time', async () => {
    const h = headers();
    h.set(RPC_DEADLINE_HEADER, 'soon');
    const reply = await nc.request(vaultSubject(infra.bus, 'list'), JSON.stringify({ org_id: orgId, actor: 'admin' }), { timeout: 5000, headers: h });
    expect(JSON.parse(reply.string())).toMatchObject({ ok: false, error: { code: 'bad_request' } });
  });
});
