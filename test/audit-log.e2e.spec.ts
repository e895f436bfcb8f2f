import type { Browser, Page } from 'playwright-core';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, isolatedInfra, startReadyApp, type IsolatedInfra, type PlatformProcess } from '@meter/testing';
import { authDataSource, call, login, newOrg } from './auth-support';
import { launchChromium, LAYOUTS, screenshot } from './console-browser';
import { testKeyRing } from './gateway-support';
import { ringEntry } from './vault-fixtures';

interface Entry {
  id: string;
  occurred_at: string;
  action: string;
  actor: { type: string; admin_id: string | null; email: string | null };
  target_id: string | null;
  detail: string | null;
}

/**
 * `GET /audit-log` (docs/management-api.md, "Audit log") against the real auth, vault and integrations
 * processes: sign-ins, credentials, vault entries and webhook endpoints, newest first, paged, without a
 * secret; another organization's entries are unknown. Then the console's Audit log page in Chromium.
 */
describe('audit log', () => {
  let infra: IsolatedInfra;
  let db: DataSource;
  let auth: { process: PlatformProcess; base: string };
  let vault: { process: PlatformProcess };
  let integrations: { process: PlatformProcess };
  let browser: Browser;
  let a: Awaited<ReturnType<typeof newOrg>> & { token: string };
  let b: Awaited<ReturnType<typeof newOrg>> & { token: string };
  /** Every secret org A was shown or sent: none may appear in the log. */
  const secrets: string[] = [];
  /** What org A did, by the id of its target. */
  const targets: Record<string, string> = {};

  const log = async (token: string, query = '') => {
    const response = await call(auth.base, 'GET', `/audit-log${query}`, { token });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as { entries: Entry[]; has_more: boolean; next_page_token: string | null };
  };

  beforeAll(async () => {
    infra = await isolatedInfra();
    const keys = await testKeyRing();
    db = await authDataSource({ DATABASE_URL: infra.databaseUrl }, 'audit-log-test');
    const dataDir = `.data/test-${infra.busPrefix}`;
    const started = await startReadyApp('auth', infra.env({ CREDENTIAL_KEYRING: keys.env, DATA_DIR: dataDir }), 90_000);
    auth = { process: started.process, base: `http://127.0.0.1:${started.port}` };
    [vault, integrations, browser] = await Promise.all([
      startReadyApp('vault', infra.env({ VAULT_ROOT_KEYRING: ringEntry('k1') }), 90_000),
      startReadyApp('integrations', infra.env({ DATA_DIR: dataDir }), 90_000),
      launchChromium(),
    ]);
    const [orgA, orgB] = [await newOrg(db, { fastHash: true }), await newOrg(db, { fastHash: true })];
    a = { ...orgA, token: await login(auth.base, orgA.email, orgA.password) };
    b = { ...orgB, token: await login(auth.base, orgB.email, orgB.password) };
    secrets.push(a.token, b.token);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all([auth?.process.stop(), vault?.process.stop(), integrations?.process.stop()]);
    await db?.destroy();
    await infra?.cleanup();
  });

  it('records sign-ins, credentials, vault entries and endpoints, newest first, by whom, without a secret', async () => {
    const created = await call(auth.base, 'POST', '/org-api-credentials', {
      token: a.token,
      body: { name: 'Billing export', type: 'secret', scopes: ['meter:consumption:read'] },
    });
    expect(created.status).toBe(201);
    secrets.push(created.body.secret_key as string);
    targets.credential = created.body.id as string;
    expect(
      (await call(auth.base, 'PATCH', `/org-api-credentials/${targets.credential}`, { token: a.token, body: { allowed_cidrs: ['10.0.0.0/8'] } })).status,
    ).toBe(200);
    expect((await call(auth.base, 'DELETE', `/org-api-credentials/${targets.credential}`, { token: a.token })).status).toBe(204);

    const token = 'tok_audit_9c2e7a5d8f3b6e0c1a9d4b1f';
    secrets.push(token);
    const stored = await eventually(
      async () => {
        const answer = await call(auth.base, 'PATCH', '/organization-vault', {
          token: a.token,
          body: { namespace: 'alerts', type: 'api_token_identity', data: { token } },
        });
        return answer.status === 200 ? answer : false;
      },
      20_000,
      'vault entry stored',
    );
    targets.entry = stored.body.id as string;
    expect((await call(auth.base, 'DELETE', `/organization-vault/${targets.entry}`, { token: a.token })).status).toBe(204);

    const endpoint = await eventually(
      async () => {
        const answer = await call(auth.base, 'POST', '/webhook-endpoints', {
          token: a.token,
          body: { url: 'http://127.0.0.1:9/hooks?key=receiver-token-7f3a', events: ['alert.raised'] },
        });
        return answer.status === 201 ? answer : false;
      },
      20_000,
      'endpoint created',
    );
    secrets.push(endpoint.body.secret as string, 'receiver-token-7f3a');
    targets.endpoint = endpoint.body.id as string;
    expect((await call(auth.base, 'PATCH', `/webhook-endpoints/${targets.endpoint}`, { token: a.token, body: { status: 'disabled' } })).status).toBe(200);

    const { entries, has_more } = await log(a.token);
    expect(has_more).toBe(false);
    expect(entries.map((e) => [e.action, e.target_id])).toEqual([
      ['webhook_endpoint.changed', targets.endpoint],
      ['webhook_endpoint.created', targets.endpoint],
      ['vault_entry.deleted', targets.entry],
      ['vault_entry.written', targets.entry],
      ['credential.revoked', targets.credential],
      ['credential.changed', targets.credential],
      ['credential.created', targets.credential],
      ['session.signed_in', expect.stringMatching(/^ses_/)],
      ['admin.created', expect.any(String)],
      ['organization.created', a.orgId],
    ]);
    // Newest first, and every change by the admin who made it; the organization and its admin came from the CLI.
    expect([...entries].sort((x, y) => y.occurred_at.localeCompare(x.occurred_at))).toEqual(entries);
    for (const e of entries.slice(0, 8)) expect(e.actor, e.action).toEqual({ type: 'admin', admin_id: expect.any(String), email: a.email });
    expect(entries[9].actor).toEqual({ type: 'platform', admin_id: null, email: null });
    expect(entries.find((e) => e.action === 'credential.created')!.detail).toBe('Billing export');
    expect(entries.find((e) => e.action === 'vault_entry.written')!.detail).toBe('alerts/api_token_identity');

    const text = JSON.stringify(entries);
    expect(secrets).toHaveLength(6);
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toContain(token.slice(-4) + '"');
    const { rows } = { rows: (await db.query('SELECT * FROM auth.audit_log')) as unknown[] };
    for (const secret of secrets) expect(JSON.stringify(rows)).not.toContain(secret);
  });

  it('pages by keyset and filters by action; bad parameters are 400 naming them', async () => {
    const all = (await log(a.token)).entries;
    const first = await log(a.token, '?limit=4');
    expect(first.has_more).toBe(true);
    const second = await log(a.token, `?limit=4&next_page_token=${first.next_page_token}`);
    const third = await log(a.token, `?limit=4&next_page_token=${second.next_page_token}`);
    expect(third).toMatchObject({ has_more: false, next_page_token: null });
    expect([...first.entries, ...second.entries, ...third.entries]).toEqual(all);
    expect((await log(a.token, '?action=credential.created')).entries.map((e) => e.target_id)).toEqual([targets.credential]);
    for (const [query, field] of [
      ['?limit=0', 'limit'],
      ['?limit=201', 'limit'],
      ['?action=credential.stolen', 'action'],
      ['?next_page_token=forged', 'next_page_token'],
    ]) {
      const response = await call(auth.base, 'GET', `/audit-log${query}`, { token: a.token });
      expect(response.status, query).toBe(400);
      expect((response.body.errors as { field: string }[]).map((e) => e.field)).toEqual([field]);
    }
  });

  it("never shows one organization another's entries: lists, pages and ids (404)", async () => {
    const mine = (await log(a.token)).entries;
    const theirs = (await log(b.token)).entries;
    expect(theirs.map((e) => e.action)).toEqual(['session.signed_in', 'admin.created', 'organization.created']);
    const ids = new Set(mine.map((e) => e.id));
    expect(theirs.some((e) => ids.has(e.id))).toBe(false);
    expect(JSON.stringify(theirs)).not.toMatch(new RegExp(`${a.orgId}|${a.email}|${targets.credential}`));
    // A's page token moves only within B's own log.
    const aPage = await log(a.token, '?limit=1');
    const bPage = await log(b.token, `?next_page_token=${aPage.next_page_token}`);
    expect(bPage.entries.every((e) => theirs.some((t) => t.id === e.id))).toBe(true);

    const one = await call(auth.base, 'GET', `/audit-log/${mine[0].id}`, { token: a.token });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(mine[0]);
    for (const id of [mine[0].id, '999999999', 'x1']) {
      const response = await call(auth.base, 'GET', `/audit-log/${id}`, { token: b.token });
      expect(response.status, id).toBe(404);
      expect(response.body.code).toBe('not_found');
    }
    expect((await call(auth.base, 'GET', '/audit-log')).status).toBe(401);
  });

  it('shows the sign-in and a credential created in the console’s Audit log page', async () => {
    const context = await browser.newContext({ viewport: LAYOUTS.desktop, baseURL: auth.base });
    const page: Page = await context.newPage();
    await page.goto('/console/');
    await page.getByLabel('Email').fill(b.email);
    await page.getByLabel('Password').fill(b.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Credentials' }).click();
    await page.getByRole('button', { name: 'Create credential' }).click();
    await page.getByLabel('Name').fill('Meter portal');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const secretKey = (await page.locator('output[aria-label="Secret key"]').textContent())!;
    await page.getByRole('button', { name: 'I have stored it' }).click();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    const created = page.getByRole('row', { name: /credential created/ });
    await created.waitFor();
    await expect(created.textContent()).resolves.toContain('Meter portal');
    await expect(created.textContent()).resolves.toContain(b.email);
    // Two sign-ins: the API's login in beforeAll and the console's just now, the newer above.
    await expect(page.getByRole('row', { name: /session signed in/ }).count()).resolves.toBe(2);
    const actions = await page.locator('tbody th[scope="row"]').allTextContents();
    expect(actions.slice(0, 2)).toEqual(['credential created', 'session signed in']);
    expect(await page.locator('main').textContent()).not.toContain(secretKey);
    await screenshot(page, 'audit-log');

    await page.getByLabel('Action').selectOption('credential.created');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    await page.getByLabel('Action').selectOption('vault_entry.deleted');
    await page.getByText('No entry of this action yet.').waitFor();
    await context.close();
  });
});
