import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsumptionStack, type ConsumptionStack } from './consumption-stack';
import { signedRequest, type RawResponse, type TestCredential } from './gateway-support';

/**
 * The consumption routes end to end: readings published on NATS, through
 * the ingest process into Postgres, answered by the signed gateway.
 * "Now" is pinned with TEST_NOW so every value below is known exactly.
 */
const NOW = '2026-11-21T10:17:00.000Z';
const H = 3600_000;
const FIRST = Date.UTC(2026, 7, 25); // 2026-08-25T00:00Z
const LAST = Date.UTC(2026, 10, 21, 10); // 2026-11-21T10:00Z, the latest reading
const iso = (ms: number) => new Date(ms).toISOString();

type Json = Record<string, unknown> & { [k: string]: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('consumption routes through NATS, ingest and the signed gateway', () => {
  let stack: ConsumptionStack;
  let port: number;
  let orgA: TestCredential;
  let orgB: TestCredential;

  const get = (credential: TestCredential, target: string, zone?: string): Promise<RawResponse> =>
    signedRequest(port, credential, { target, headers: zone ? { 'x-timezone': zone } : {} });
  const json = async (credential: TestCredential, target: string, zone?: string): Promise<Json> => {
    const response = await get(credential, target, zone);
    if (response.status !== 200) throw new Error(`${target} -> ${response.status} ${response.text}`);
    return response.json() as Json;
  };

  beforeAll(async () => {
    stack = await startConsumptionStack('consumption-e2e', ['org_a', 'org_b'], { TEST_NOW: NOW });
    ({ port } = stack);
    ({ org_a: orgA, org_b: orgB } = stack.credentials);
    const publish = stack.publish;

    // Meter 20: exactly 0.5 m³ every hour, so a 24 h day is 12, a 23 h day 11.5 and a 25 h day 12.5.
    await publish('org_a', 'devices', 20, { name: 'Main meter', time_zone: 'Asia/Kolkata', price_per_unit: 1.5, currency_symbol: '€' });
    const meter20 = [];
    for (let t = FIRST, v = 1000; t <= LAST; t += H, v += 0.5) meter20.push({ read_at: iso(t), value: v.toFixed(3) });
    for (let i = 0; i < meter20.length; i += 100) await publish('org_a', 'readings', 20, meter20.slice(i, i + 100));
    // Meter 21: 1 m³ per hour from 2026-11-18, replaced (register back to 0) at 2026-11-19T12:00Z. Never registered.
    const meter21 = [];
    for (let t = Date.UTC(2026, 10, 18), v = 500; t <= LAST; t += H) {
      v = t === Date.UTC(2026, 10, 19, 12) ? 0 : v + (t === Date.UTC(2026, 10, 18) ? 0 : 1);
      meter21.push({ read_at: iso(t), value: v });
    }
    await publish('org_a', 'readings', 21, meter21);
    // Five more devices of org_a, one reading each, for paging.
    for (const id of [30, 31, 32, 33, 34]) await publish('org_a', 'readings', id, { read_at: iso(LAST), value: 1 });
    // org_b has its own device 50 only.
    await publish('org_b', 'readings', 50, [
      { read_at: iso(LAST - H), value: 1 },
      { read_at: iso(LAST), value: 2 },
    ]);
    await stack.stored(meter20.length + meter21.length + 5 + 2, { orgId: 'org_a', deviceId: 20, name: 'Main meter' });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  });

  const values = (body: Json, series = 0) => body.series[series].data_points.map((p: Json) => p.value);

  it('7D in several zones: whole days of 12, today up to the latest reading', async () => {
    const cases: [string, string][] = [
      ['UTC', '5.000'], // 00:00Z..10:00Z
      ['Asia/Kolkata', '7.750'], // +05:30: today began 18:30Z yesterday
      ['Asia/Kathmandu', '7.875'], // +05:45
      ['Australia/Adelaide', '10.250'], // +10:30 (summer time)
      ['America/New_York', '2.500'], // -05:00: today began 05:00Z
    ];
    for (const [zone, today] of cases) {
      const body = await json(orgA, '/meter/v1/history?device_id=20&period=7D', zone);
      expect(body).toMatchObject({ device_id: 20, period: '7D', time_zone: zone, chart_type: 'BAR' });
      expect(values(body)).toEqual(['12.000', '12.000', '12.000', '12.000', '12.000', '12.000', today]);
      expect(body.series[0].data_points[6]).toEqual({ date: '2026-11-21 00:00:00.000', value: today, value_fmt: `${today} m³`, alerts: [], quality: 'ACTUAL' });
      expect(body.series[0]).toMatchObject({ serie: 'water', unit: 'm³', decimal_places: 3, data_type: 'consumption', label: 'Main meter' });
      // New York's 1 November had 25 hours: 240.5 over 20 days
      expect(body.series[0].projection).toEqual({ date: '2026-11-30', value: zone === 'America/New_York' ? 360.75 : 360 });
    }
  });

  it('15D, CURRENT_MONTH and past months, with 23 h and 25 h days', async () => {
    const d15 = await json(orgA, '/meter/v1/history?device_id=20&period=15D', 'UTC');
    expect(values(d15)).toEqual([...Array(14).fill('12.000'), '5.000']);
    expect(d15.series[0].data_points[0].date).toBe('2026-11-07 00:00:00.000');

    const current = await json(orgA, '/meter/v1/history?device_id=20&period=CURRENT_MONTH', 'Europe/Madrid');
    expect(current.chart_type).toBe('LINE');
    expect(values(current)).toEqual([...Array(20).fill('12.000'), '5.500']);

    const october = await json(orgA, '/meter/v1/history?device_id=20&period=2026-10', 'Europe/Madrid');
    expect(october.chart_type).toBe('BAR');
    expect(values(october)).toHaveLength(31);
    expect(values(october)[24]).toBe('12.500'); // 2026-10-25 has 25 hours in Madrid
    expect(values(october).filter((v: string) => v === '12.000')).toHaveLength(30);

    const november = await json(orgA, '/meter/v1/history?device_id=20&period=2026-11', 'America/New_York');
    expect(values(november)[0]).toBe('12.500'); // 2026-11-01 has 25 hours in New York
    const august = await json(orgA, '/meter/v1/history?device_id=20&period=2026-08', 'UTC');
    expect(august.series[0].data_points[0]).toMatchObject({ value: '0', value_fmt: '0 m³', alerts: [{ code: 'NO_DATA' }] }); // a NO_DATA day is exactly "0"
    expect(values(august).slice(24)).toEqual(Array(7).fill('12.000'));
    expect(august.summary).toBe('Average 2.710 m³ per day over 31 days; projected 360.000 m³ for the month ending 2026-11-30.');
  });

  it('NO_DATA before the first reading, REGISTER_RESET on the day of the decrease, for a self-registered meter', async () => {
    const body = await json(orgA, '/meter/v1/history?device_id=21&period=7D', 'UTC');
    expect(body.time_zone).toBe('UTC');
    const points = body.series[0].data_points;
    expect(points.map((p: Json) => p.value)).toEqual(['0', '0', '0', '24.000', '23.000', '24.000', '10.000']); // a day not covered is "0"
    expect(points[0].alerts).toEqual([{ code: 'NO_DATA', message: expect.any(String) }]);
    expect(points[4].alerts).toEqual([{ code: 'REGISTER_RESET', message: expect.any(String) }]);
    expect(points[5].alerts).toEqual([]);
    expect(body.series[0].label).toBe('Device 21');
  });

  it('uses the device zone without X-Timezone and refuses bad zones, periods and ids', async () => {
    const body = await json(orgA, '/meter/v1/history?device_id=20&period=7D');
    expect(body.time_zone).toBe('Asia/Kolkata');
    expect(values(body)[6]).toBe('7.750');
    const bad: [string, string | undefined, string][] = [
      ['/meter/v1/history?device_id=20&period=7D', 'Mars/Olympus', 'X-Timezone'],
      ['/meter/v1/history?device_id=20&period=7D', '+05:30', 'X-Timezone'],
      ['/meter/v1/history?device_id=20&period=7d', undefined, 'period'],
      ['/meter/v1/history?device_id=20&period=2026-12', undefined, 'period'],
      ['/meter/v1/history?device_id=20&period=2026-13', undefined, 'period'],
      ['/meter/v1/history?device_id=20', undefined, 'period'],
      ['/meter/v1/history?device_id=abc&period=7D', undefined, 'device_id'],
      ['/meter/v1/history?period=7D', undefined, 'device_id'],
      ['/meter/v1/history/3m?device_id=0', undefined, 'device_id'],
      ['/meter/v1/projection?device_id=20', 'Not/AZone', 'X-Timezone'],
      ['/meter/v1/projection/bulk?device_ids=', undefined, 'device_ids'],
      ['/meter/v1/projection/bulk?device_ids=1,x', undefined, 'device_ids'],
      [`/meter/v1/projection/bulk?device_ids=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`, undefined, 'device_ids'],
      ['/meter/v1/devices?limit=0', undefined, 'limit'],
      ['/meter/v1/devices?ipp=501', undefined, 'ipp'],
    ];
    for (const [target, zone, field] of bad) {
      const response = await get(orgA, target, zone);
      expect({ target, status: response.status, code: response.json().code }).toEqual({ target, status: 400, code: 'validation_failed' });
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect((response.json().errors as Json[])[0].field).toBe(field);
    }
    for (const target of [
      '/meter/v1/history?device_id=999&period=7D',
      '/meter/v1/history/3m?device_id=999',
      '/meter/v1/projection/999',
      '/meter/v1/projection?device_id=999',
    ]) {
      const response = await get(orgA, target);
      expect({ target, status: response.status, code: response.json().code }).toEqual({ target, status: 404, code: 'not_found' });
    }
  });

  it('three months: the current month and the two before it, oldest first, with day rows', async () => {
    const body = await json(orgA, '/meter/v1/history/3m?device_id=20', 'Europe/Madrid');
    expect(body.time_zone).toBe('Europe/Madrid');
    const rows = body.series[0].rows;
    expect(rows.map((r: Json) => [r.date, r.value, r.value_fmt, r.by_days.length])).toEqual([
      ['2026-09-01', '360.000', '360.000 m³', 30],
      ['2026-10-01', '372.500', '372.500 m³', 31],
      ['2026-11-01', '245.500', '245.500 m³', 21],
    ]);
    expect(rows[1].by_days[24]).toEqual({ date: '2026-10-25', value: '12.500', value_fmt: '12.500 m³', alerts: [], quality: 'ACTUAL' });
    expect(rows[0].alerts).toEqual([]);
    const utc = await json(orgA, '/meter/v1/history/3m?device_id=20', 'UTC');
    expect(utc.series[0].rows.map((r: Json) => r.value)).toEqual(['360.000', '372.000', '245.000']);
  });

  it('the three projection forms agree with each other, with history and with the dashboard', async () => {
    const single = await json(orgA, '/meter/v1/projection?device_id=20', 'UTC');
    expect(single).toEqual({
      device_id: '20',
      projected_value: 360,
      projected_cost: 540,
      unit: 'm³',
      currency_symbol: '€',
      days_used_for_calculation: 20,
      total_days_in_month: 30,
      average_daily_consumption: 12,
      calculation_date: '2026-11-21',
      projection_date: '2026-11-30',
    });
    expect(await json(orgA, '/meter/v1/projection/20', 'UTC')).toEqual(single);
    const bulk = await json(orgA, '/meter/v1/projection/bulk?device_ids=20,21,999', 'UTC');
    const { projected_cost: _cost, currency_symbol: _currency, ...withoutCost } = single;
    expect(bulk.projections[0]).toEqual(withoutCost);
    // meter 21: Nov 18 24 + Nov 19 23 + Nov 20 24 = 71 over 20 days
    expect(bulk.projections[1]).toMatchObject({ device_id: '21', average_daily_consumption: 3.55, projected_value: 106.5 });
    expect(bulk.errors).toEqual([{ device_id: '999', code: 'NOT_FOUND', message: expect.any(String) }]);

    const response = await signedRequest(port, orgA, {
      method: 'POST',
      target: '/meter/v1/dashboard',
      body: JSON.stringify({ devices: [{ device_id: 20 }, { device_id: 999 }] }),
      headers: { 'x-timezone': 'UTC' },
    });
    expect(response.status).toBe(200);
    const results = (response.json() as Json).results;
    expect(results[1]).toEqual({ device_id: 999, status: 'NOT_FOUND', panels: [] });
    expect(results[0].status).toBe('SUCCESS');
    const panels = Object.fromEntries(results[0].panels.map((p: Json) => [p.type, p]));
    expect(Object.keys(panels)).toEqual(['CURRENT_CONSUMPTION', 'DAILY_ESTIMATE', 'LAST_READING', 'MONTHLY_PROJECTION']);
    expect(panels.CURRENT_CONSUMPTION).toMatchObject({ value: 245, display_value: '245.0', unit: 'm³', serie: 'water', channel: 1, alerts: [] });
    expect(panels.DAILY_ESTIMATE).toMatchObject({ value: single.average_daily_consumption, display_value: '12.0' });
    expect(panels.LAST_READING).toMatchObject({ value: 2061, display_value: '2,061.0', subtitle: '2026-11-21 10:00 (UTC)' });
    expect(panels.MONTHLY_PROJECTION).toMatchObject({ value: single.projected_value, display_value: '360.0' });
    const history = await json(orgA, '/meter/v1/history?device_id=20&period=CURRENT_MONTH', 'UTC');
    expect(history.series[0].projection).toEqual({ date: single.projection_date, value: single.projected_value });
  });

  it('pages the device list in both shapes with opaque tokens that only work for their organization', async () => {
    const first = await json(orgA, '/meter/v1/devices?limit=3');
    expect(first.rows).toEqual([
      { id: 20, name: 'Main meter' },
      { id: 21, name: 'Device 21' },
      { id: 30, name: 'Device 30' },
    ]);
    expect(first.devices[0]).toEqual({ device_id: '20', activated_at: '2026-08-25T00:00:00.000Z', channels: 1 });
    expect(first.has_more).toBe(true);
    expect(first.next_cursor).toBe(first.next_page_token);
    const second = await json(orgA, `/meter/v1/devices?ipp=3&next_page_token=${encodeURIComponent(first.next_page_token)}`);
    expect(second.rows.map((r: Json) => r.id)).toEqual([31, 32, 33]);
    const third = await json(orgA, `/meter/v1/devices?limit=3&next_page_token=${encodeURIComponent(second.next_page_token)}`);
    expect(third).toMatchObject({ rows: [{ id: 34, name: 'Device 34' }], has_more: false, next_page_token: null, next_cursor: null });
    expect((await json(orgA, '/meter/v1/devices')).rows).toHaveLength(7);
    // Asked again, the page comes from the gateway's cache, as bytes: the same JSON, type and length.
    const again = await get(orgA, '/meter/v1/devices?limit=3');
    expect(again.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(again.headers['content-length'])).toBe(Buffer.byteLength(again.text));
    expect(again.json()).toEqual(first);

    const foreign = await get(orgB, `/meter/v1/devices?next_page_token=${encodeURIComponent(first.next_page_token)}`);
    expect(foreign.status).toBe(400);
    const forged = first.next_page_token.replace(/^[^.]+/, Buffer.from(JSON.stringify({ o: 'org_a', a: 1 })).toString('base64url'));
    expect((await get(orgA, `/meter/v1/devices?next_page_token=${encodeURIComponent(forged)}`)).status).toBe(400);
  });

  it('shows another organization nothing of org_a', async () => {
    const list = await json(orgB, '/meter/v1/devices');
    expect(list.rows).toEqual([{ id: 50, name: 'Device 50' }]);
    for (const target of ['/meter/v1/history?device_id=20&period=7D', '/meter/v1/history/3m?device_id=20', '/meter/v1/projection/20']) {
      expect((await get(orgB, target)).status).toBe(404);
    }
    const bulk = await json(orgB, '/meter/v1/projection/bulk?device_ids=20,50');
    expect(bulk.errors).toEqual([{ device_id: '20', code: 'NOT_FOUND', message: expect.any(String) }]);
    const dashboard = await signedRequest(port, orgB, {
      method: 'POST',
      target: '/meter/v1/dashboard',
      body: JSON.stringify({ devices: [{ device_id: 20 }] }),
    });
    expect((dashboard.json() as Json).results).toEqual([{ device_id: 20, status: 'NOT_FOUND', panels: [] }]);
  });

  it('refuses malformed dashboard requests with 400', async () => {
    for (const body of [
      '{}',
      '{"devices":[]}',
      '{"devices":[{"device_id":"20"}]}',
      JSON.stringify({ devices: Array.from({ length: 101 }, (_, i) => ({ device_id: i + 1 })) }),
    ]) {
      const response = await signedRequest(port, orgA, { method: 'POST', target: '/meter/v1/dashboard', body });
      expect({ body: body.slice(0, 40), status: response.status }).toEqual({ body: body.slice(0, 40), status: 400 });
    }
  });
});
