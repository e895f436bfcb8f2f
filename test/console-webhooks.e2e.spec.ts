import type { Browser, Page } from 'playwright-core';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { eventually, isolatedInfra, startReadyApp, type IsolatedInfra, type PlatformProcess } from '@meter/testing';
import { WebhookReceiver } from './alert-support';
import { authDataSource, newOrg } from './auth-support';
import { launchChromium, LAYOUTS, screenshot } from './console-browser';
import { testKeyRing } from './gateway-support';

/**
 * The console's Webhooks page in a real Chromium against the real management and integrations processes
 * (contract sections 11 and 13): `Send test event` sends a signed `webhook.test` event to that endpoint alone,
 * and the delivery appears on the page with the exact payload the receiver got.
 */
describe('console webhooks: test event and deliveries', () => {
  let infra: IsolatedInfra;
  let db: DataSource;
  let auth: { process: PlatformProcess; base: string };
  let integrations: { process: PlatformProcess };
  let receiver: WebhookReceiver;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    infra = await isolatedInfra();
    const keys = await testKeyRing();
    db = await authDataSource({ DATABASE_URL: infra.databaseUrl }, 'console-webhooks-test');
    receiver = await WebhookReceiver.start();
    const dataDir = `.data/test-${infra.busPrefix}`;
    const started = await startReadyApp('auth', infra.env({ CREDENTIAL_KEYRING: keys.env, DATA_DIR: dataDir }), 90_000);
    auth = { process: started.process, base: `http://127.0.0.1:${started.port}` };
    [integrations, browser] = await Promise.all([startReadyApp('integrations', infra.env({ DATA_DIR: dataDir }), 90_000), launchChromium()]);
    const org = await newOrg(db, { fastHash: true });
    const context = await browser.newContext({ viewport: LAYOUTS.desktop, baseURL: auth.base });
    page = await context.newPage();
    await page.goto('/console/');
    await page.getByLabel('Email').fill(org.email);
    await page.getByLabel('Password').fill(org.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all([auth?.process.stop(), integrations?.process.stop()]);
    await receiver?.stop();
    await db?.destroy();
    await infra?.cleanup();
  });

  it('sends a signed webhook.test to the endpoint alone and lists its delivery with the payload sent', async () => {
    const testedUrl = receiver.url('/tested');
    const bystanderUrl = receiver.url('/bystander');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByText('No endpoint yet').waitFor();
    const add = async (url: string) => {
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await page.getByLabel('URL').fill(url);
      await page.getByRole('button', { name: 'Add', exact: true }).click();
      const secret = (await page.locator('output[aria-label="Signing secret"]').textContent())!;
      await page.getByRole('button', { name: 'I have stored it' }).click();
      await page.getByRole('region', { name: `Endpoint ${url}` }).waitFor();
      return secret;
    };
    const secret = await add(testedUrl);
    expect(secret).toMatch(/^whsec_/);
    await add(bystanderUrl);

    const panel = page.getByRole('region', { name: `Endpoint ${testedUrl}` });
    await panel.getByRole('button', { name: 'Send test event' }).click();
    await panel.getByText('A webhook.test event is on its way').waitFor();

    const [got] = await eventually(async () => (receiver.at('/tested').length ? receiver.at('/tested') : false), 30_000, 'test event received');
    expect(() => new Webhook(secret).verify(got.body, got.headers as Record<string, string>)).not.toThrow();
    const event = JSON.parse(got.body) as { type: string; data: { endpoint_id: string } };
    expect(event.type).toBe('webhook.test');

    // The deliveries open by themselves and follow the pending delivery until it is delivered.
    const row = panel.getByRole('row', { name: /webhook\.test/ });
    await row.getByText('delivered').waitFor({ timeout: 30_000 });
    await expect(row.getByRole('cell').nth(2).textContent()).resolves.toBe('200');
    await row.getByText('Payload', { exact: true }).click();
    const shown = (await row.getByLabel(/^Payload of delivery/).textContent())!;
    expect(JSON.parse(shown)).toEqual(JSON.parse(got.body));
    expect(shown).toContain(event.data.endpoint_id);
    await expect(row.getByLabel(/^Answer to delivery/).textContent()).resolves.toBe('200');
    await screenshot(page, 'webhooks-test-event');

    // Sent to that endpoint alone; the other lists no delivery.
    expect(receiver.at('/bystander')).toEqual([]);
    const bystander = page.getByRole('region', { name: `Endpoint ${bystanderUrl}` });
    await bystander.getByRole('button', { name: 'Deliveries' }).click();
    await bystander.getByText('No delivery yet').waitFor();
  });
});
