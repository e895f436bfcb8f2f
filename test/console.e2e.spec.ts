import { jetstream } from '@nats-io/jetstream';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '@meter/crypto';
import { eventually, isolatedInfra, startReadyApp, type IsolatedInfra, type PlatformProcess } from '@meter/testing';
import { connectNats } from '@meter/messaging';
import { authDataSource, call, login, newOrg } from './auth-support';
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

  it('shows the fleet, and a device page whose table equals the gateway’s history; 3 months of hourly readings load in under a second', async () => {
    // A meter with three months of hourly readings, through the bus and the ingest process as in production.
    const deviceId = 4021;
    const nc = await connectNats(infra.natsUrl, 'console-test');
    const js = jetstream(nc);
    const subject = (kind: string) => infra.bus.subject(`meter.${kind}.${org.orgId}.${deviceId}`);
    await js.publish(subject('devices'), JSON.stringify({ name: 'Riverside pump house', time_zone: 'Europe/Madrid', leak_threshold_per_hour: 0 }));
    const hours = 92 * 24;
    const start = Date.now() - hours * 3_600_000;
    const readings = Array.from({ length: hours }, (_, i) => ({
      read_at: new Date(Math.floor(start / 3_600_000) * 3_600_000 + i * 3_600_000).toISOString(),
      value: (1000 + i * 0.0125 + (i % 24 === 3 ? 0 : 0.001 * (i % 7))).toFixed(4),
    }));
    let total = 0;
    for (let i = 0; i < readings.length; i += 200) {
      const batch = readings.slice(i, i + 200);
      // Registers only grow: each value is its predecessor's plus a step.
      await js.publish(subject('readings'), JSON.stringify(batch));
      total += batch.length;
    }
    await nc.close();
    await eventually(
      async () => Number(((await db.query('SELECT count(*) AS n FROM ingest.readings WHERE device_id = $1', [deviceId])) as { n: string }[])[0].n) === total,
      60_000,
      'readings ingested',
    );

    await navigate('Devices');
    const row = page.getByRole('row', { name: /Riverside pump house/ });
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain('Europe/Madrid');
    await screenshot(page, 'devices');

    // First load of the device page, timed in the browser from the click to the last section drawn.
    const started = await page.evaluate<number>('performance.now()');
    await row.getByRole('link', { name: 'Riverside pump house' }).click();
    await heading('Riverside pump house').waitFor();
    await page.locator('figure.chart canvas').nth(1).waitFor();
    await page.getByText('Projected cost').waitFor();
    const loadMs = (await page.evaluate<number>('performance.now()')) - started;
    console.log(`console: device page with ${total} hourly readings loaded in ${Math.round(loadMs)} ms`);

    await page.getByRole('button', { name: 'Show table' }).first().click();
    const shown = await page
      .locator('figure.chart')
      .first()
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((r) => Array.from(r.children, (c) => (c as { textContent: string | null }).textContent ?? '')));

    // The same period, zone and unit from the gateway with a credential of the organization.
    const token = await login(auth.base, org.email, org.password);
    const created = await call(auth.base, 'POST', '/org-api-credentials', {
      token,
      body: { name: 'Comparison', type: 'secret', scopes: ['meter:consumption:read'] },
    });
    const credential = { accessKey: created.body.access_key as string, secretKey: created.body.secret_key as string };
    const target = `/meter/v1/history?device_id=${deviceId}&period=7D`;
    const answer = await eventually(
      async () => {
        const response = await signedRequest(gateway.port, credential, { target });
        return response.status === 200 ? response.json() : false;
      },
      10_000,
      'gateway history',
    );
    const points = (answer.series as { data_points: { date: string; value: string; quality: string }[] }[])[0].data_points;
    expect(shown).toEqual(points.map((p) => [p.date.slice(0, 10), p.value, p.quality]));
    expect(shown.length).toBe(7);
    await screenshot(page, 'device');

    // Another unit: the table follows, still the gateway's figures.
    await page.getByLabel('Unit').selectOption('L');
    await page.locator('figure.chart').first().getByText('Value (L)').waitFor();
    const litres = await signedRequest(gateway.port, credential, { target, headers: { 'x-unit': 'L' } });
    const shownLitres = await page.locator('figure.chart').first().locator('tbody tr td.num').allTextContents();
    expect(shownLitres).toEqual((litres.json().series as { data_points: { value: string }[] }[])[0].data_points.map((p) => p.value));

    await navigate('Alerts');
    await page.getByLabel('State').selectOption('all');
    await page
      .getByText(/No alert matches|Device 4021/)
      .first()
      .waitFor();
    await screenshot(page, 'alerts');
  });

  it('edits a device’s external ids, with the server’s errors beside the field they name', async () => {
    // Another meter of the organization already carries a DevEUI.
    const nc = await connectNats(infra.natsUrl, 'console-radio-ids');
    await jetstream(nc).publish(
      infra.bus.subject(`meter.devices.${org.orgId}.4022`),
      JSON.stringify({ name: 'Harbour meter', external_ids: { dev_eui: '0004A30B001C0530' } }),
    );
    await nc.close();
    const radioIds = async (deviceId: number) =>
      (
        (await db.query('SELECT dev_eui, wmbus_id FROM ingest.devices WHERE org_id = $1 AND device_id = $2', [org.orgId, deviceId])) as {
          dev_eui: string | null;
          wmbus_id: string | null;
        }[]
      )[0];
    await eventually(async () => (await radioIds(4022))?.dev_eui === '0004a30b001c0530', 20_000, 'the other meter registered');

    await navigate('Devices');
    await page
      .getByRole('row', { name: /Riverside pump house/ })
      .getByRole('link', { name: 'Riverside pump house' })
      .click();
    await heading('Riverside pump house').waitFor();
    const form = page.getByRole('form', { name: 'External ids' });
    const devEui = form.getByLabel('DevEUI');
    const save = form.getByRole('button', { name: 'Save external ids' });
    const errorOf = async (field: typeof devEui) => {
      await field.and(page.locator('[aria-invalid="true"]')).waitFor();
      const describedBy = (await field.getAttribute('aria-describedby'))!;
      return page.locator(`[id="${describedBy.split(' ').pop()}"]`).textContent();
    };

    await devEui.fill('0004A30B001C05');
    await save.click();
    await expect(errorOf(devEui)).resolves.toMatch(/16 hex digits/);
    await devEui.fill('0004A30B001C0530');
    await save.click();
    await expect(errorOf(devEui)).resolves.toMatch(/device 4022/);
    expect(await radioIds(4021)).toEqual({ dev_eui: null, wmbus_id: null });

    await devEui.fill('70B3D57ED0001234');
    await form.getByLabel('wM-Bus id').fill('76348799');
    await save.click();
    await form.getByRole('status').waitFor();
    await expect(devEui.getAttribute('aria-invalid')).resolves.toBe('false');
    await expect(devEui.inputValue()).resolves.toBe('70b3d57ed0001234');
    expect(await radioIds(4021)).toEqual({ dev_eui: '70b3d57ed0001234', wmbus_id: '76348799' });
    await screenshot(page, 'device-external-ids');
  });

  it('keeps every token and secret out of localStorage, sessionStorage and URLs', async () => {
    const stored = await page.evaluate<string>('JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })');
    expect(stored).toBe('{}{}');
    expect(secrets.length).toBeGreaterThanOrEqual(4);
    for (const secret of secrets) for (const url of urls) expect(url).not.toContain(secret);
  });

  it('signs out to the sign-in page, and an expired session returns there saying so', async () => {
    let inFlight = 0;
    page.on('request', () => inFlight++);
    page.on('requestfinished', () => inFlight--);
    page.on('requestfailed', () => inFlight--);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You have signed out.').waitFor();
    await expect(context.cookies()).resolves.toEqual([]);

    await page.getByLabel('Email').fill(org.email);
    await page.getByLabel('Password').fill(org.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    // On a page that polls nothing, once every request it made is answered: the click below is then
    // what meets the expired session (a request of the page still on its way could meet it first).
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Credentials' }).click();
    await page.getByRole('heading', { name: 'Credentials' }).waitFor();
    await expect.poll(() => inFlight, { timeout: 10_000 }).toBe(0);
    const [cookie] = await context.cookies();
    await db.query("UPDATE auth.sessions SET expires_at = now() - interval '1 second' WHERE token_hash = $1", [sha256Hex(cookie.value)]);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Vault' }).click();
    await page.getByText('Your session has expired. Sign in again.').waitFor();
    await page.getByLabel('Password').waitFor();
  });
});
