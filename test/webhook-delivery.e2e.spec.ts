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
  next_attempt_at: string | null;
}

/**
 * Webhook delivery end to end: retries on the schedule with the same
 * webhook-id, 410 disabling the endpoint, a restart of the integrations
 * process with deliveries pending, manual retry, secret rotation, and the
 * management routes' answers. Device alarms make the events (the quickest
 * alert to raise).
 */
describe('webhook delivery', () => {
  let platform: AlertPlatform;
  let receiver: WebhookReceiver;
  let org: TestOrganization;
  let device = 0;
  /** An endpoint that answers 200 to everything: every event reaches it. */
  let always = '';
  const at = () => new Date(Math.floor(Date.now() / 1000) * 1000).toISOString();

  const endpoint = async (path: string, events = ['alert.raised']) => {
    const created = await platform.management(org, 'POST', '/webhook-endpoints', { url: receiver.url(path), events });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body as { id: string; secret: string };
  };
  /** Raises an alarm on a device of its own: one alert.raised event for every endpoint. */
  const raise = () => platform.publish('alarms', org.orgId, ++device, { code: 'TAMPER', state: 'raised', at: at() });
  const deliveries = async (id: string) => (await platform.management(org, 'GET', `/webhook-endpoints/${id}/deliveries`)).body.deliveries as Delivery[];
  const deliveriesWhen = (id: string, done: (list: Delivery[]) => boolean, what: string) =>
    eventually(
      async () => {
        const list = await deliveries(id);
        return done(list) ? list : false;
      },
      30_000,
      what,
    );

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    // Shares above the five attempts the restart case holds open on one endpoint.
    platform = await startAlertPlatform('webhook-delivery-e2e', {
      WEBHOOK_RETRY_SCHEDULE_SECONDS: '1,1,1',
      WEBHOOK_ENDPOINT_CONCURRENCY: '8',
      WEBHOOK_ORG_CONCURRENCY: '16',
    });
    org = await platform.organization();
    always = (await endpoint('/always')).id;
  });

  afterAll(async () => {
    await platform?.stop();
    await receiver?.stop();
  });

  it('a receiver answering 500, 503, then 200 gets the same webhook-id three times and the delivery ends delivered', async () => {
    receiver.answer('/flaky', [500, 503]);
    const { id, secret } = await endpoint('/flaky');
    await raise();
    const [delivery] = await deliveriesWhen(id, (list) => list[0]?.status === 'delivered', 'delivered');
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 3, last_status_code: 200, next_attempt_at: null });
    const attempts = receiver.at('/flaky');
    expect(attempts.map((a) => a.answered)).toEqual([500, 503, 200]);
    expect(new Set(attempts.map((a) => a.headers['webhook-id']))).toEqual(new Set([delivery.event_id]));
    for (const attempt of attempts) expect(() => new Webhook(secret).verify(attempt.body, attempt.headers as Record<string, string>)).not.toThrow();
    // The schedule's waits lie between the attempts (1 s each here).
    expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(900);
    // Operators see the delivery's latency, retries included, and the backlog.
    const metrics = await (await fetch(`http://127.0.0.1:${platform.integrations.port}/metrics`)).text();
    expect(Number(/^meter_webhook_delivery_latency_seconds_count (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(1);
    expect(Number(/^meter_webhook_delivery_latency_seconds_bucket\{le="1"\} (\d+)$/m.exec(metrics)?.[1])).toBeLessThan(
      Number(/^meter_webhook_delivery_latency_seconds_count (\d+)$/m.exec(metrics)?.[1]),
    );
    expect(metrics).toMatch(/^meter_webhook_deliveries_pending \d+$/m);
  });

  it('410 Gone disables the endpoint: no further deliveries until it is enabled again', async () => {
    receiver.answer('/gone', [], 410);
    const { id } = await endpoint('/gone');
    await raise();
    await deliveriesWhen(id, (list) => list[0]?.status === 'failed', 'failed on 410');
    const listed = (await platform.management(org, 'GET', '/webhook-endpoints')).body.endpoints as { id: string; status: string; disabled_reason: string }[];
    expect(listed.find((e) => e.id === id)).toMatchObject({ status: 'disabled', disabled_reason: expect.stringContaining('410') });
    expect(receiver.at('/gone')).toHaveLength(1);
    // Disabled: new events make no delivery for it (once another endpoint has the event, it was fanned out); a retry is refused.
    const before = (await deliveries(always)).length;
    await raise();
    await deliveriesWhen(always, (list) => list.length === before + 1, 'the next event fanned out');
    const [failed] = await deliveries(id);
    expect(await deliveries(id)).toHaveLength(1);
    expect((await platform.management(org, 'POST', `/webhook-endpoints/${id}/deliveries/${failed.id}/retry`)).status).toBe(409);
    // Enabled again, a manual retry delivers the failed one once more, with the same webhook-id.
    receiver.answer('/gone', [], 200);
    expect((await platform.management(org, 'PATCH', `/webhook-endpoints/${id}`, { status: 'enabled' })).body).toMatchObject({
      status: 'enabled',
      disabled_reason: null,
    });
    const retried = await platform.management(org, 'POST', `/webhook-endpoints/${id}/deliveries/${failed.id}/retry`);
    expect(retried.status).toBe(202);
    expect(retried.body).toMatchObject({ id: failed.id, status: 'pending' });
    await deliveriesWhen(id, (list) => list[0]?.status === 'delivered', 'delivered after the retry');
    expect(receiver.at('/gone').map((r) => r.headers['webhook-id'])).toEqual([failed.event_id, failed.event_id]);
  });

  it('a restart of the delivering process with deliveries pending loses none', async () => {
    // The receiver hangs: the attempts are under way when the process stops.
    receiver.answer('/restart', [], 0);
    const { id } = await endpoint('/restart');
    for (let i = 0; i < 5; i++) await raise();
    await eventually(async () => receiver.at('/restart').length === 5, 30_000, 'five attempts under way');
    await platform.integrations.process.stop();
    // Events raised while it is down wait in the stream.
    for (let i = 0; i < 3; i++) await raise();
    receiver.answer('/restart', [], 200);
    await platform.restartIntegrations();
    const done = await deliveriesWhen(id, (list) => list.length === 8 && list.every((d) => d.status === 'delivered'), 'all eight delivered');
    // The cut attempts did not count: each delivery was attempted once, to a 200.
    expect(done.map((d) => d.attempts)).toEqual(Array(8).fill(1));
    const delivered = new Set(
      receiver
        .at('/restart')
        .filter((r) => r.answered === 200)
        .map((r) => r.headers['webhook-id']),
    );
    expect(delivered).toEqual(new Set(done.map((d) => d.event_id)));
  });

  it('after a rotation both secrets sign for a while, and each verifies', async () => {
    const { id, secret } = await endpoint('/rotate');
    const rotated = await platform.management(org, 'POST', `/webhook-endpoints/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Date.parse(rotated.body.previous_secret_expires_at) - Date.now()).toBeGreaterThan(23 * 3600_000);
    await raise();
    const [delivered] = await eventually(async () => (receiver.at('/rotate').length ? receiver.at('/rotate') : false), 30_000, 'delivered');
    expect(String(delivered.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const key of [secret, rotated.body.secret as string]) {
      expect(() => new Webhook(key).verify(delivered.body, delivered.headers as Record<string, string>)).not.toThrow();
    }
  });

  it('management routes: validation, secrets shown once, 404s, delete', async () => {
    for (const [body, field] of [
      [{ url: 'ftp://example.com/x', events: ['alert.raised'] }, 'url'],
      [{ url: receiver.url('/x'), events: ['alert.opened'] }, 'events[0]'],
      [{ url: receiver.url('/x'), events: [] }, 'events'],
      [{ url: receiver.url('/x'), events: ['alert.raised'], secret: 'mine' }, 'secret'],
    ] as const) {
      const answer = await platform.management(org, 'POST', '/webhook-endpoints', body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body).toMatchObject({ code: 'validation_failed', errors: [expect.objectContaining({ field })] });
    }
    const { id } = await endpoint('/x', ['alert.raised', 'export.failed']);
    const listed = (await platform.management(org, 'GET', '/webhook-endpoints')).body.endpoints as Record<string, unknown>[];
    const mine = listed.find((e) => e.id === id)!;
    expect(mine).toMatchObject({ url: receiver.url('/x'), events: ['alert.raised', 'export.failed'], status: 'enabled' });
    expect(mine).not.toHaveProperty('secret');
    // The secret is stored sealed, never as written.
    const { rows } = await platform.db.query(`SELECT sealed_secret FROM integrations.webhook_endpoints WHERE id = $1`, [id]);
    expect(rows[0].sealed_secret).toMatch(/^v1\./);
    expect((await platform.management(org, 'PATCH', `/webhook-endpoints/${id}`, { events: ['alert.cleared'] })).body.events).toEqual(['alert.cleared']);
    for (const path of [`/webhook-endpoints/${id.replace(/.$/, '0')}/deliveries`, '/webhook-endpoints/not-an-id/deliveries']) {
      expect((await platform.management(org, 'GET', path)).status).toBe(404);
    }
    expect((await platform.management(org, 'DELETE', `/webhook-endpoints/${id}`)).status).toBe(204);
    expect((await platform.management(org, 'DELETE', `/webhook-endpoints/${id}`)).status).toBe(404);
  });
});
