import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '@meter/crypto';
import { eventually, isolatedInfra, startReadyApp, type IsolatedInfra, type PlatformProcess } from '@meter/testing';
import { authDataSource, newOrg } from './auth-support';
import { launchChromium, LAYOUTS, screenshot } from './console-browser';
import { startS3, type S3Emulator } from './export-emulators';
import { signedRequest, testKeyRing } from './gateway-support';
import { ringEntry } from './vault-fixtures';

/**
 * The admin console in a real Chromium against the real management process and the services behind it
 * (contract section 11): every flow an admin goes through, as the admin would.
 */
describe('admin console in Chromium', () => {
  let infra: IsolatedInfra;
  let db: DataSource;
  let auth: { process: PlatformProcess; base: string };
  let gateway: { process: PlatformProcess; port: number };
  let vault: { process: PlatformProcess };
  let integrations: { process: PlatformProcess };
  let ingest: { process: PlatformProcess };
  let s3: S3Emulator;
  let receiver: Server;
  let receiverUrl: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let org: Awaited<ReturnType<typeof newOrg>>;
  /** Every URL the console opened, to prove no token or secret went into one. */
  const urls: string[] = [];
  /** Secrets the console showed or was given, which must appear in no URL and no storage. */
  const secrets: string[] = [];

  beforeAll(async () => {
    infra = await isolatedInfra();
    const keys = await testKeyRing();
    db = await authDataSource({ DATABASE_URL: infra.databaseUrl }, 'console-test');
    receiver = createServer((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(204).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/meter`;
    const dataDir = `.data/test-${infra.busPrefix}`;
    // Two waves: on a loaded machine, six processes starting at once can each miss their start-up deadline.
    const started = await startReadyApp('auth', infra.env({ CREDENTIAL_KEYRING: keys.env, DATA_DIR: dataDir }), 90_000);
    auth = { process: started.process, base: `http://127.0.0.1:${started.port}` };
    [gateway, vault, integrations] = await Promise.all([
      startReadyApp('gateway', infra.env({ CREDENTIAL_KEYRING: keys.env }), 90_000),
      startReadyApp('vault', infra.env({ VAULT_ROOT_KEYRING: ringEntry('k1') }), 90_000),
      startReadyApp('integrations', infra.env({ EXPORT_POLL_SECONDS: '0.5', DATA_DIR: dataDir }), 90_000),
    ]);
    [ingest, s3, browser] = await Promise.all([startReadyApp('ingest', infra.env({}), 90_000), startS3(), launchChromium()]);
    org = await newOrg(db, { fastHash: true });
    context = await browser.newContext({ viewport: LAYOUTS.desktop, baseURL: auth.base });
    page = await context.newPage();
    page.on('request', (request) => urls.push(request.url()));
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all([auth?.process.stop(), gateway?.process.stop(), vault?.process.stop(), integrations?.process.stop(), ingest?.process.stop(), s3?.stop()]);
    await new Promise((resolve) => receiver?.close(resolve));
    await db?.destroy();
    await infra?.cleanup();
  });

  const heading = (name: string) => page.getByRole('heading', { level: 1, name });
  const navigate = async (name: string) => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click();
    await heading(name).waitFor();
  };

  it('serves the console from the management process with a strict Content-Security-Policy and cached assets', async () => {
    const response = await fetch(`${auth.base}/console/credentials`);
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const html = await response.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const asset = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)![1];
    const script = await fetch(`${auth.base}${asset}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    // Nothing loads from another origin: no CDN.
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it('signs in from the keyboard into an HttpOnly, SameSite=Strict cookie', async () => {
    await page.goto('/console/');
    await screenshot(page, 'sign-in');
    await page.getByLabel('Email').fill(org.email);
    await page.getByLabel('Password').fill('wrong password');
    await page.getByLabel('Password').press('Enter');
    await page.getByText('The email or the password is wrong.').waitFor();
    await page.getByLabel('Password').fill(org.password);
    await page.getByLabel('Password').press('Enter');
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    for (const name of ['Devices', 'Alerts', 'Credentials', 'Vault', 'Exports', 'Webhooks', 'Audit log']) {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).waitFor();
    }
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: 'meter_session', httpOnly: true, sameSite: 'Strict', path: '/' });
    secrets.push(cookie.value);
  });

  it('creates a credential whose secret, shown once, signs a gateway call; revoked, the call is refused', async () => {
    await navigate('Credentials');
    await page.getByText('No credentials yet').waitFor();
    await screenshot(page, 'credentials-empty');
    await page.getByRole('button', { name: 'Create credential' }).click();
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    // The server's errors[] beside the field it names.
    await page.getByLabel('Name').and(page.locator('[aria-invalid="true"]')).waitFor();
    await page.getByText('must not be empty').waitFor();
    await page.getByLabel('Name').fill('Billing export');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const secretKey = (await page.locator('output[aria-label="Secret key"]').textContent())!;
    const accessKey = (await page.locator('.panel code').first().textContent())!;
    expect(accessKey).toMatch(/^sk_live_/);
    expect(secretKey.length).toBeGreaterThan(20);
    secrets.push(secretKey);
    await screenshot(page, 'credentials-created');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.locator('output[aria-label="Secret key"]').waitFor({ state: 'detached' });

    const credential = { accessKey, secretKey };
    await eventually(
      async () => (await signedRequest(gateway.port, credential, { target: '/meter/v1/devices' })).status === 200,
      10_000,
      'credential accepted',
    );

    // Escape keeps it; confirming revokes it.
    await page.getByRole('button', { name: 'Revoke Billing export' }).click();
    await page.getByRole('dialog').getByText('This cannot be undone').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Revoke Billing export' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke credential' }).click();
    await page
      .getByRole('row', { name: /Billing export/ })
      .getByText('revoked')
      .waitFor();
    await screenshot(page, 'credentials');
    await eventually(async () => (await signedRequest(gateway.port, credential, { target: '/meter/v1/devices' })).status === 401, 10_000, 'credential refused');
  });

  it('adds vault entries showing only masked secrets, with per-field errors, and deletes one after confirmation', async () => {
    await navigate('Vault');
    await page.getByText('The vault is empty').waitFor();
    const token = 'tok_console_4b1f9c2e7a5d8f3b6e0c1a9d';
    secrets.push(token);
    await page.getByRole('button', { name: 'Add entry' }).click();
    await page.getByLabel('Namespace').fill('alerts');
    await page.getByLabel('Type').selectOption('api_token_identity');
    await page.getByLabel('Token').fill(token);
    await page.getByRole('button', { name: 'Save entry' }).click();
    await page.getByRole('row', { name: /alerts/ }).waitFor();

    await page.getByRole('button', { name: 'Add entry' }).click();
    await page.getByLabel('Namespace').fill('exports');
    await page.getByLabel('Access key').fill(s3.accessKey);
    await page.getByLabel('Secret key').fill(s3.secretKey);
    await page.getByLabel('Endpoint URL').fill('not a url');
    await page.getByLabel('Region').fill('us-east-1');
    await page.getByRole('button', { name: 'Save entry' }).click();
    const endpoint = page.getByLabel('Endpoint URL');
    await endpoint.and(page.locator('[aria-invalid="true"]')).waitFor();
    const describedBy = (await endpoint.getAttribute('aria-describedby'))!;
    await expect(page.locator(`[id="${describedBy.split(' ').pop()}"]`).textContent()).resolves.toMatch(/URL/i);
    await endpoint.fill(s3.endpoint);
    await page.getByRole('button', { name: 'Save entry' }).click();
    await page.getByRole('row', { name: /exports/ }).waitFor();

    const text = await page.locator('main').textContent();
    expect(text).not.toContain(token);
    expect(text).toContain(s3.endpoint);
    expect(text).toContain(`****${token.slice(-4)}`);
    await screenshot(page, 'vault');

    await page.getByRole('button', { name: 'Delete alerts api_token_identity' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete entry' }).click();
    await expect(page.getByRole('row', { name: /alerts/ }).waitFor({ state: 'detached' })).resolves.toBeUndefined();
  });

  it('activates an export to the S3 emulator and runs a day', async () => {
    await s3.createBucket('console-exports');
    await navigate('Exports');
    await page.getByText('No export yet').waitFor();
    await page.getByRole('button', { name: 'Activate export' }).click();
    await page.getByLabel('Vault namespace').fill('exports');
    await page.getByLabel('Bucket').fill('no-such-bucket');
    await page.getByLabel('Time zone').fill('UTC');
    await page.getByRole('button', { name: 'Activate', exact: true }).click();
    // The destination check's error, shown.
    const failure = page.getByRole('form', { name: 'Activate export' }).getByRole('alert');
    await failure.waitFor();
    await expect(failure.textContent()).resolves.toMatch(/no-such-bucket/);
    await page.getByLabel('Bucket').fill('console-exports');
    await page.getByLabel('Prefix').fill('meters/');
    await page.getByRole('button', { name: 'Activate', exact: true }).click();
    const panel = page.getByRole('region', { name: /Export exports → console-exports\/meters\// });
    await panel.waitFor();
    await panel.getByRole('button', { name: 'Run again' }).click();
    await panel.getByRole('row').filter({ hasText: 'succeeded' }).waitFor({ timeout: 30_000 });
    expect((await s3.keys('console-exports')).length).toBeGreaterThan(0);
    await screenshot(page, 'exports');
  });

  it('adds a webhook endpoint, its secret shown once', async () => {
    await navigate('Webhooks');
    await page.getByText('No endpoint yet').waitFor();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByLabel('URL').fill(receiverUrl);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const secret = (await page.locator('output[aria-label="Signing secret"]').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    secrets.push(secret);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.getByRole('region', { name: `Endpoint ${receiverUrl}` }).waitFor();
    await screenshot(page, 'webhooks');
  });

  it('keeps every token and secret out of localStorage, sessionStorage and URLs', async () => {
    const stored = await page.evaluate<string>('JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })');
    expect(stored).toBe('{}{}');
    expect(secrets.length).toBeGreaterThanOrEqual(4);
    for (const secret of secrets) for (const url of urls) expect(url).not.toContain(secret);
  });

  it('signs out to the sign-in page, and an expired session returns there saying so', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You have signed out.').waitFor();
    await expect(context.cookies()).resolves.toEqual([]);

    await page.getByLabel('Email').fill(org.email);
    await page.getByLabel('Password').fill(org.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    const [cookie] = await context.cookies();
    await db.query("UPDATE auth.sessions SET expires_at = now() - interval '1 second' WHERE token_hash = $1", [sha256Hex(cookie.value)]);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Vault' }).click();
    await page.getByText('Your session has expired. Sign in again.').waitFor();
    await page.getByLabel('Password').waitFor();
  });
});
