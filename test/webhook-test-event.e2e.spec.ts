import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { eventually } from '@meter/testing';
import { startAlertPlatform, WebhookReceiver, type AlertPlatform, type TestOrganization } from './alert-support';

interface Delivery {
  id: string;
  event_id: string;
  type: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  payload: string;
  response_body: string | null;
}

/**
 * `POST /webhook-endpoints/{id}/test` and the deliveries' payload and answer
 * (contract 13) against the real auth, integrations and ingest processes: the
 * test event goes to that endpoint alone through the normal delivery path
 * (signed, listed); each delivery shows the exact body sent and the first
 * KiB of what the receiver answered; another organization's endpoint is 404.
 */
describe('webhook test events and delivery payloads', () => {
  let platform: AlertPlatform;
  let receiver: WebhookReceiver;
  let org: TestOrganization;
  let other: TestOrganization;
  /** A receiver that answers 200 with a 3,000-byte body whose 1,024th byte falls inside a two-byte character. */
  let talkative: { server: Server; url: string; got: { headers: IncomingHttpHeaders; body: string }[] };
  const LONG_ANSWER = 'a'.repeat(1023) + 'é'.repeat(1000);

  const endpoint = async (owner: TestOrganization, url: string, events = ['alert.raised']) => {
    const created = await platform.management(owner, 'POST', '/webhook-endpoints', { url, events });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body as { id: string; secret: string };
  };
  const deliveries = async (owner: TestOrganization, id: string) =>
    (await platform.management(owner, 'GET', `/webhook-endpoints/${id}/deliveries`)).body.deliveries as Delivery[];
  const deliveredWhen = (owner: TestOrganization, id: string, count: number) =>
    eventually(
      async () => {
        const list = await deliveries(owner, id);
        return list.length === count && list.every((d) => d.status === 'delivered') ? list : false;
      },
      30_000,
      `${count} deliveries delivered`,
    );

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    const got: { headers: IncomingHttpHeaders; body: string }[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(LONG_ANSWER);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    talkative = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got };
    platform = await startAlertPlatform('webhook-test-event-e2e', { WEBHOOK_RETRY_SCHEDULE_SECONDS: '1,1' });
    [org, other] = [await platform.organization(), await platform.organization()];
  }, 120_000);

  afterAll(async () => {
    await platform?.stop();
    await receiver?.stop();
    talkative?.server.closeAllConnections();
    await new Promise((resolve) => talkative?.server.close(resolve));
  });

  it('sends webhook.test to that endpoint alone, signed, and lists it with the payload and the answer', async () => {
    const tested = await endpoint(org, receiver.url('/tested'), ['export.failed']);
    await endpoint(org, receiver.url('/bystander'), ['alert.raised', 'alert.cleared', 'export.succeeded', 'export.failed']);
    const sent = await platform.management(org, 'POST', `/webhook-endpoints/${tested.id}/test`);
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    expect(sent.body).toMatchObject({ type: 'webhook.test', status: 'pending', attempts: 0, response_body: null });
    const [delivery] = await deliveredWhen(org, tested.id, 1);
    const [attempt] = receiver.at('/tested');
    expect(attempt.headers['webhook-id']).toBe(delivery.event_id);
    expect(() => new Webhook(tested.secret).verify(attempt.body, attempt.headers as Record<string, string>)).not.toThrow();
    expect(JSON.parse(attempt.body)).toMatchObject({ type: 'webhook.test', data: { endpoint_id: tested.id } });
    expect(delivery).toMatchObject({ id: sent.body.id, type: 'webhook.test', attempts: 1, last_status_code: 200, payload: attempt.body, response_body: '200' });
    expect(receiver.at('/bystander')).toEqual([]);
    expect(JSON.stringify(delivery)).not.toContain(tested.secret.slice(6));
  });

  it("keeps the first KiB of the receiver's answer and shows an alert delivery's exact payload", async () => {
    const { id, secret } = await endpoint(org, talkative.url);
    await platform.publish('alarms', org.orgId, 7, { code: 'TAMPER', state: 'raised', at: new Date(Math.floor(Date.now() / 1000) * 1000).toISOString() });
    const [delivery] = await deliveredWhen(org, id, 1);
    expect(delivery.type).toBe('alert.raised');
    expect(talkative.got).toHaveLength(1);
    expect(delivery.payload).toBe(talkative.got[0].body);
    expect(() => new Webhook(secret).verify(delivery.payload, talkative.got[0].headers as Record<string, string>)).not.toThrow();
    // 1,023 bytes of "a", then the first byte of "é": cut there, shown as U+FFFD.
    expect(delivery.response_body).toBe('a'.repeat(1023) + '\ufffd');
  });

  it("refuses a disabled endpoint (409) and answers 404 for an unknown id or another organization's endpoint", async () => {
    const { id } = await endpoint(org, receiver.url('/disabled'));
    expect((await platform.management(org, 'PATCH', `/webhook-endpoints/${id}`, { status: 'disabled' })).status).toBe(200);
    const refused = await platform.management(org, 'POST', `/webhook-endpoints/${id}/test`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('conflict');
    for (const target of [`/webhook-endpoints/${id}/test`, '/webhook-endpoints/00000000-0000-4000-8000-000000000000/test', '/webhook-endpoints/nope/test']) {
      const answer = await platform.management(other, 'POST', target);
      expect(answer.status, target).toBe(404);
      expect(answer.body.code).toBe('not_found');
    }
    expect((await platform.management(other, 'GET', `/webhook-endpoints/${id}/deliveries`)).status).toBe(404);
    expect(receiver.at('/disabled')).toEqual([]);
  });
});
