import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@meter/testing';
import { startAlertPlatform, hourlyReadings, type AlertPlatform, type TestOrganization } from './alert-support';
import { signedRequest } from './gateway-support';

/**
 * The management API's fleet routes (docs/management-api.md, "Fleet") against
 * the real auth, gateway and ingest processes: their consumption answers equal
 * the gateway's for the same device, period, zone and unit; the device list
 * pages and searches; the alert lists filter; another organization's ids are
 * unknown (404) on every route. "Now" is pinned with TEST_NOW for both.
 */
const NOW = '2026-11-21T10:00:00Z';
const HOUR = 3_600_000;

describe('fleet routes of the management API', () => {
  let platform: AlertPlatform;
  let a: TestOrganization;
  let b: TestOrganization;

  const call = async (org: TestOrganization, path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${platform.auth.base}${path}`, { headers: { authorization: `Bearer ${org.token}`, ...headers } });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const gateway = async (org: TestOrganization, target: string, headers: Record<string, string> = {}) => {
    const response = await signedRequest(platform.gateway.port, org.credential, { target, headers });
    expect(response.status, response.text).toBe(200);
    return response.json() as Record<string, unknown>;
  };

  beforeAll(async () => {
    platform = await startAlertPlatform('fleet-e2e', { TEST_NOW: NOW, INGEST_ALERT_RULES: 'off' });
    [a, b] = [await platform.organization(), await platform.organization()];
    const end = Date.parse(NOW) - HOUR;
    const start = end - 70 * 24 * HOUR;
    const steps = Array.from({ length: 70 * 24 }, (_, i) => (i % 24 < 7 ? 0 : 0.013 + (i % 5) * 0.001));
    await platform.publish('devices', a.orgId, 1, { name: 'Kitchen', time_zone: 'Europe/Madrid', price_per_unit: 2 });
    await platform.publish('devices', a.orgId, 2, { name: 'Garden tap', channels: 2 });
    await platform.publish('devices', a.orgId, 3, { name: 'Basement' });
    await platform.publish('devices', b.orgId, 1, { name: 'Other kitchen' });
    const readings = hourlyReadings(start, 100, steps);
    for (let i = 0; i < readings.length; i += 500) await platform.publish('readings', a.orgId, 1, readings.slice(i, i + 500));
    await platform.publish('readings', a.orgId, 2, [{ read_at: new Date(end).toISOString(), value: '7.5', channel: 2 }]);
    await platform.publish('alarms', a.orgId, 2, { code: 'TAMPER', state: 'raised', at: new Date(end).toISOString() });
    await platform.publish('alarms', a.orgId, 3, { code: 'LOW_BATTERY', state: 'raised', at: new Date(end - HOUR).toISOString() });
    await eventually(
      async () => {
        const { rows } = await platform.db.query(
          `SELECT (SELECT count(*) FROM ingest.readings)::int AS readings, (SELECT count(*) FROM ingest.alert_episodes)::int AS alerts,
                  (SELECT count(*) FROM ingest.devices WHERE name <> 'Device ' || device_id)::int AS named`,
        );
        return rows[0].readings === steps.length + 2 && rows[0].alerts === 2 && rows[0].named === 4;
      },
      60_000,
      'readings, alarms and devices stored',
    );
  }, 180_000);

  afterAll(async () => {
    await platform?.stop();
  });

  it.each([
    ['7D', {}],
    ['15D', { 'x-unit': 'L' }],
    ['CURRENT_MONTH', { 'x-timezone': 'America/New_York' }],
    ['2026-10', { 'x-unit': 'gal', 'x-timezone': 'Asia/Kolkata' }],
    ['2026-09', {}],
  ] as const)('the history of %s with %o is the gateway answer, to the digit', async (period, headers) => {
    const managed = await call(a, `/devices/1/history?period=${period}`, headers);
    expect(managed.status, JSON.stringify(managed.body)).toBe(200);
    expect(managed.body).toEqual(await gateway(a, `/meter/v1/history?device_id=1&period=${period}`, headers));
    expect(JSON.stringify(managed.body)).toMatch(/"quality":"ACTUAL"/);
  });

  it.each<Record<string, string>>([{}, { 'x-unit': 'gal' }, { 'x-timezone': 'Pacific/Auckland', 'x-unit': 'L' }])(
    'the three months and the projection with %o are the gateway answers',
    async (headers) => {
      const months = await call(a, '/devices/1/history/3m', headers);
      expect(months.status).toBe(200);
      expect(months.body).toEqual(await gateway(a, '/meter/v1/history/3m?device_id=1', headers));
      const projection = await call(a, '/devices/1/projection', headers);
      expect(projection.status).toBe(200);
      expect(projection.body).toEqual(await gateway(a, '/meter/v1/projection/1', headers));
      expect(projection.body.projected_cost).toBeGreaterThan(0);
    },
  );

  it('bad parameters are 400 naming them, as in the gateway', async () => {
    const cases: [string, Record<string, string>, string][] = [
      ['/devices/1/history?period=2031-01', {}, 'period'],
      ['/devices/1/history', {}, 'period'],
      ['/devices/x1/history?period=7D', {}, 'id'],
      ['/devices/1/projection', { 'x-unit': 'kWh' }, 'X-Unit'],
      ['/devices/1/history/3m', { 'x-timezone': 'Mars/Olympus' }, 'X-Timezone'],
      ['/devices?limit=0', {}, 'limit'],
      ['/devices?next_page_token=forged', {}, 'next_page_token'],
      ['/alerts?code=FLOOD', {}, 'code'],
      ['/alerts?state=closed', {}, 'state'],
      ['/devices/1/alerts?next_page_token=eyJ4IjoxfQ', {}, 'next_page_token'],
    ];
    for (const [path, headers, field] of cases) {
      const response = await call(a, path, headers);
      expect(response.status, path).toBe(400);
      expect(
        (response.body.errors as { field: string }[]).map((e) => e.field),
        path,
      ).toContain(field);
    }
  });

  it('lists the fleet by id, a page at a time, with the newest reading and the open alerts', async () => {
    const first = await call(a, '/devices?limit=2');
    expect(first.status).toBe(200);
    const devices = first.body.devices as Record<string, unknown>[];
    expect(devices.map((d) => d.device_id)).toEqual([1, 2]);
    expect(devices[0]).toMatchObject({
      name: 'Kitchen',
      unit: 'm³',
      time_zone: 'Europe/Madrid',
      channels: 1,
      last_reading: { channel: 1, read_at: new Date(Date.parse(NOW) - HOUR).toISOString() },
      open_alerts: [],
      external_ids: { dev_eui: null, wmbus_id: null },
    });
    expect((devices[0].last_reading as { value: string }).value).toMatch(/^1[0-9]{2}\.[0-9]{3}$/);
    expect(devices[1]).toMatchObject({ channels: 2, last_reading: { channel: 2, value: '7.500' }, open_alerts: [{ code: 'TAMPER', state: 'open' }] });
    expect(first.body.has_more).toBe(true);
    const second = await call(a, `/devices?limit=2&next_page_token=${first.body.next_page_token as string}`);
    expect((second.body.devices as { device_id: number }[]).map((d) => d.device_id)).toEqual([3]);
    expect(second.body).toMatchObject({ has_more: false, next_page_token: null });
    expect(((second.body.devices as Record<string, unknown>[])[0] as { last_reading: unknown }).last_reading).toBeNull();
  });

  it('finds devices by name in any letter case, or by the start of their id', async () => {
    const ids = async (q: string) => ((await call(a, `/devices?q=${encodeURIComponent(q)}`)).body.devices as { device_id: number }[]).map((d) => d.device_id);
    expect(await ids('GARDEN')).toEqual([2]);
    expect(await ids('3')).toEqual([3]);
    expect(await ids('%')).toEqual([]);
    expect(await ids('nothing like it')).toEqual([]);
  });

  it("lists the fleet's alerts by state and code, and a device's own", async () => {
    const open = await call(a, '/alerts');
    expect((open.body.alerts as { code: string }[]).map((e) => e.code)).toEqual(['TAMPER', 'LOW_BATTERY']);
    const tamper = await call(a, '/alerts?code=TAMPER&state=all');
    expect((tamper.body.alerts as { device_id: number }[]).map((e) => e.device_id)).toEqual([2]);
    const paged = await call(a, '/alerts?limit=1');
    expect(paged.body.has_more).toBe(true);
    const next = await call(a, `/alerts?limit=1&next_page_token=${paged.body.next_page_token as string}`);
    expect((next.body.alerts as { code: string }[]).map((e) => e.code)).toEqual(['LOW_BATTERY']);
    expect((await call(a, '/alerts?state=cleared')).body.alerts).toEqual([]);
    const own = await call(a, '/devices/3/alerts');
    expect(own.body).toMatchObject({ alerts: [{ device_id: 3, code: 'LOW_BATTERY' }], has_more: false, next_page_token: null });
    const gatewayList = await gateway(a, '/meter/v1/alerts?device_id=3');
    expect(own.body.alerts).toEqual(gatewayList.alerts);
  });

  it("answers another organization's device ids with 404 on every device route, and lists only the caller's fleet", async () => {
    for (const path of ['/devices/2/history?period=7D', '/devices/2/history/3m', '/devices/2/projection', '/devices/2/alerts', '/devices/3/alerts?state=all']) {
      const response = await call(b, path);
      expect(response.status, path).toBe(404);
      expect(response.body.code).toBe('not_found');
      expect(JSON.stringify(response.body)).not.toMatch(/Garden|Basement/);
    }
    const fleet = await call(b, '/devices');
    expect((fleet.body.devices as { name: string }[]).map((d) => d.name)).toEqual(['Other kitchen']);
    expect((await call(b, '/alerts?state=all')).body.alerts).toEqual([]);
    expect((await call(b, '/alerts?device_id=2&state=all')).body.alerts).toEqual([]);
    // B's device 1 is its own: its history, not A's.
    const own = await call(b, '/devices/1/history?period=7D');
    expect(own.status).toBe(200);
    expect(JSON.stringify(own.body)).toContain('Other kitchen');
  });

  it('needs an admin session on every route', async () => {
    for (const path of ['/devices', '/devices/1/history?period=7D', '/devices/1/history/3m', '/devices/1/projection', '/devices/1/alerts', '/alerts']) {
      const response = await fetch(`${platform.auth.base}${path}`);
      expect(response.status, path).toBe(401);
    }
  });
});
