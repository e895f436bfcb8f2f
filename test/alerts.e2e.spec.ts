import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { eventually } from '@meter/testing';
import { signedRequest } from './gateway-support';
import { alertsWhen, hourlyReadings, startAlertPlatform, WebhookReceiver, type AlertPlatform, type TestOrganization } from './alert-support';

const H = 3_600_000;
const ALARMS = ['TAMPER', 'LOW_BATTERY', 'REVERSE_FLOW', 'DRY', 'MAGNETIC', 'OTHER'] as const;

/**
 * Alerts end to end: readings and alarms published on NATS, judged by ingest,
 * read back through the signed gateway, and pushed by the integrations
 * process to a real HTTP receiver as signed webhooks.
 */
describe('alerts from the bus to the gateway and to webhooks', () => {
  let platform: AlertPlatform;
  let receiver: WebhookReceiver;
  let org: TestOrganization;
  let other: TestOrganization;
  let secret: string;
  // The readings end at the last full hour; every device but the silent one is recent.
  const end = Math.floor(Date.now() / H) * H;

  /** The webhooks org's endpoint received, parsed. */
  const webhooks = () =>
    receiver.at('/org').map((r) => ({ ...r, json: JSON.parse(r.body) as { type: string; timestamp: string; data: Record<string, unknown> } }));
  const webhookOf = (type: string, code: string, deviceId: number) =>
    eventually(
      async () => webhooks().find((w) => w.json.type === type && w.json.data.code === code && w.json.data.device_id === deviceId) ?? false,
      30_000,
      `${type} ${code} of device ${deviceId} delivered`,
    );

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    platform = await startAlertPlatform('alerts-e2e', { ALERT_SILENCE_CHECK_SECONDS: '1', WEBHOOK_RETRY_SCHEDULE_SECONDS: '1,1,1' });
    [org, other] = await Promise.all([platform.organization(), platform.organization()]);
    const created = await platform.management(org, 'POST', '/webhook-endpoints', { url: receiver.url('/org'), events: ['alert.raised', 'alert.cleared'] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    secret = created.body.secret;
    const otherCreated = await platform.management(other, 'POST', '/webhook-endpoints', {
      url: receiver.url('/other'),
      events: ['alert.raised', 'alert.cleared'],
    });
    expect(otherCreated.status).toBe(201);
  });

  afterAll(async () => {
    await platform?.stop();
    await receiver?.stop();
  });

  it('a 30-hour continuous flow raises exactly one LEAK, redelivered readings included, and the first still hour clears it', async () => {
    const from = end - 40 * H;
    const readings = hourlyReadings(from, 100, [...Array(5).fill(0), ...Array(30).fill(0.012), ...Array(3).fill(0)]);
    await platform.publish('devices', org.orgId, 1, { name: 'Leaky', time_zone: 'UTC' });
    // Hour by hour, then everything again as one message (a collector's redelivery).
    for (const reading of readings) await platform.publish('readings', org.orgId, 1, reading);
    await platform.publish('readings', org.orgId, 1, readings);
    const [leak] = await alertsWhen(platform, org, 'device_id=1&state=all', (a) => a.some((x) => x.state === 'cleared'), 'the LEAK cleared');
    const all = (await platform.get(org, '/meter/v1/alerts?device_id=1&state=all')).json().alerts as Record<string, unknown>[];
    expect(all).toHaveLength(1);
    expect(leak).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      device_id: 1,
      channel: 1,
      code: 'LEAK',
      state: 'cleared',
      raised_at: new Date(from + 29 * H).toISOString(),
      cleared_at: new Date(from + 36 * H).toISOString(),
      message: expect.stringContaining('leak'),
    });
    // Pushed once each, with the episode as data, signed so that the reference implementation verifies it.
    const raised = await webhookOf('alert.raised', 'LEAK', 1);
    const cleared = await webhookOf('alert.cleared', 'LEAK', 1);
    expect(raised.json).toEqual({ type: 'alert.raised', timestamp: leak.raised_at, data: { ...leak, state: 'open', cleared_at: null } });
    expect(cleared.json).toEqual({ type: 'alert.cleared', timestamp: leak.cleared_at, data: leak });
    for (const w of [raised, cleared]) {
      expect(w.headers['content-type']).toBe('application/json');
      expect(new Webhook(secret).verify(w.body, w.headers as Record<string, string>)).toEqual(w.json);
    }
    expect(webhooks().filter((w) => w.json.data.code === 'LEAK')).toHaveLength(2);
    // The history day it was raised on lists LEAK among its alerts.
    const history = (await platform.get(org, '/meter/v1/history?device_id=1&period=7D')).json() as {
      series: { data_points: { date: string; alerts: { code: string }[] }[] }[];
    };
    const day = history.series[0].data_points.find((p) => p.date.startsWith(String(leak.raised_at).slice(0, 10)))!;
    expect(day.alerts.map((a) => a.code)).toContain('LEAK');
    expect(history.series[0].data_points.filter((p) => p.alerts.some((a) => a.code === 'LEAK'))).toHaveLength(1);
  });

  it('BURST: an hour above the device threshold, cleared by the next hour below it', async () => {
    await platform.publish('devices', org.orgId, 2, { name: 'Burst', burst_threshold_per_hour: 1 });
    await platform.publish('readings', org.orgId, 2, hourlyReadings(end - 5 * H, 10, [0.1, 2.5, 0.1, 0.1, 0.1]));
    const [burst] = await alertsWhen(platform, org, 'device_id=2&state=all', (a) => a.length > 0 && a[0].state === 'cleared', 'BURST cleared');
    expect(burst).toMatchObject({ code: 'BURST', raised_at: new Date(end - 3 * H).toISOString(), cleared_at: new Date(end - 2 * H).toISOString() });
    await webhookOf('alert.cleared', 'BURST', 2);
  });

  it('NO_FLOW: no consumption over the last local day, cleared by consumption', async () => {
    await platform.publish('devices', org.orgId, 3, { name: 'Idle', no_flow_days: 1, time_zone: 'UTC' });
    await platform.publish('readings', org.orgId, 3, hourlyReadings(end - 72 * H, 5, [...Array(10).fill(0.05), ...Array(62).fill(0)]));
    const [idle] = await alertsWhen(platform, org, 'device_id=3', (a) => a.length > 0, 'NO_FLOW open');
    expect(idle).toMatchObject({ code: 'NO_FLOW', state: 'open' });
    // Raised at the first reading once a whole local day (UTC) passed without consumption.
    expect(new Date(idle.raised_at as string).getUTCHours()).toBe(0);
    await webhookOf('alert.raised', 'NO_FLOW', 3);
    await platform.publish('readings', org.orgId, 3, { read_at: new Date(end + 60_000).toISOString(), value: '6' });
    await alertsWhen(platform, org, 'device_id=3&state=cleared', (a) => a.length === 1, 'NO_FLOW cleared');
    await webhookOf('alert.cleared', 'NO_FLOW', 3);
  });

  it('NO_COMMUNICATION by the clock; the dashboard shows it open; a backfill does not clear it, a recent reading does', async () => {
    await platform.publish('devices', org.orgId, 4, { name: 'Quiet', max_silence_hours: 2 });
    await platform.publish('readings', org.orgId, 4, hourlyReadings(end - 6 * H, 1, [0.01, 0.01]));
    const [silent] = await alertsWhen(platform, org, 'device_id=4', (a) => a.length > 0, 'NO_COMMUNICATION open');
    expect(silent).toMatchObject({ code: 'NO_COMMUNICATION', state: 'open', raised_at: new Date(end - 4 * H + 2 * H).toISOString() });
    await webhookOf('alert.raised', 'NO_COMMUNICATION', 4);
    const body = JSON.stringify({ devices: [{ device_id: 4 }] });
    const panels = (await signedRequest(platform.gateway.port, org.credential, { method: 'POST', target: '/meter/v1/dashboard', body })).json() as {
      results: { panels: { alerts: { code: string }[] }[] }[];
    };
    for (const panel of panels.results[0].panels) expect(panel.alerts.map((a) => a.code)).toContain('NO_COMMUNICATION');
    // Older than the silence limit: a backfill, it stays open.
    await platform.publish('readings', org.orgId, 4, { read_at: new Date(end - 3 * H).toISOString(), value: '1.03' });
    await platform.publish('readings', org.orgId, 4, { read_at: new Date(end).toISOString(), value: '1.04' });
    const [cleared] = await alertsWhen(platform, org, 'device_id=4&state=all', (a) => a.length > 0 && a[0].state === 'cleared', 'NO_COMMUNICATION cleared');
    expect(cleared.cleared_at).toBe(new Date(end).toISOString());
    await webhookOf('alert.cleared', 'NO_COMMUNICATION', 4);
  });

  it('device alarms open and clear episodes of their code; an invalid alarm is dead-lettered', async () => {
    for (const [i, code] of ALARMS.entries()) {
      await platform.publish('alarms', org.orgId, 5, { code, state: 'raised', at: new Date(end - (20 - i) * 60_000).toISOString(), channel: 1 });
    }
    const open = await alertsWhen(platform, org, 'device_id=5', (a) => a.length === ALARMS.length, 'six alarms open');
    expect(open.map((a) => a.code).sort()).toEqual([...ALARMS].sort());
    for (const code of ALARMS) await platform.publish('alarms', org.orgId, 5, { code, state: 'cleared', at: new Date(end).toISOString() });
    await alertsWhen(platform, org, 'device_id=5&state=cleared', (a) => a.length === ALARMS.length, 'six alarms cleared');
    for (const code of ALARMS) {
      await webhookOf('alert.raised', code, 5);
      await webhookOf('alert.cleared', code, 5);
    }
    await platform.publish('alarms', org.orgId, 5, { code: 'FIRE', state: 'raised', at: new Date(end).toISOString() });
    const { streamMessages } = await import('./auth-support');
    const letters = await eventually(
      async () => {
        const found = (await streamMessages(platform.infra.natsUrl, platform.infra.bus.stream('DEAD_LETTERS'))).filter((m) => m.subject.endsWith('.alarms'));
        return found.length > 0 ? found : false;
      },
      10_000,
      'the bad alarm dead-lettered',
    );
    expect(letters[0].headers).toMatch(/Meter-Dead-Letter-Reason: code: /);
  });

  it('pages the list newest first with a token; bad parameters answer 400', async () => {
    const first = (await platform.get(org, '/meter/v1/alerts?state=all&limit=2')).json() as {
      alerts: { raised_at: string }[];
      has_more: boolean;
      next_page_token: string;
    };
    expect(first.alerts).toHaveLength(2);
    expect(first.has_more).toBe(true);
    const rest = (await platform.get(org, `/meter/v1/alerts?state=all&limit=500&next_page_token=${first.next_page_token}`)).json() as {
      alerts: { raised_at: string }[];
      has_more: boolean;
    };
    const all = [...first.alerts, ...rest.alerts].map((a) => a.raised_at);
    expect(all).toEqual([...all].sort().reverse());
    expect(rest.has_more).toBe(false);
    for (const [query, field] of [
      ['state=closed', 'state'],
      ['limit=0', 'limit'],
      ['device_id=abc', 'device_id'],
      ['next_page_token=forged.token', 'next_page_token'],
    ]) {
      const response = await platform.get(org, `/meter/v1/alerts?${query}`);
      expect(response.status).toBe(400);
      expect(response.json()).toMatchObject({ code: 'validation_failed', errors: [{ field }] });
    }
  });

  it('another organization sees none of it: no alerts, no webhooks, not the page tokens', async () => {
    // Its own device 1 with the same id raises nothing it could confuse.
    expect((await platform.get(other, '/meter/v1/alerts?state=all')).json()).toEqual({ alerts: [], has_more: false, next_page_token: null });
    expect((await platform.get(other, '/meter/v1/alerts?device_id=1&state=all')).json().alerts).toEqual([]);
    const token = ((await platform.get(org, '/meter/v1/alerts?state=all&limit=1')).json() as { next_page_token: string }).next_page_token;
    expect((await platform.get(other, `/meter/v1/alerts?next_page_token=${token}`)).status).toBe(400);
    expect(receiver.at('/other')).toEqual([]);
    // And not the endpoints or their deliveries.
    const endpoints = (await platform.management(org, 'GET', '/webhook-endpoints')).body.endpoints as { id: string }[];
    expect((await platform.management(other, 'GET', `/webhook-endpoints/${endpoints[0].id}/deliveries`)).status).toBe(404);
    expect(((await platform.management(other, 'GET', '/webhook-endpoints')).body.endpoints as { url: string }[]).map((e) => e.url)).toEqual([
      receiver.url('/other'),
    ]);
  });
});
