import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDecimals } from '@meter/consumption';
import { startConsumptionStack, type ConsumptionStack } from './consumption-stack';
import { signedRequest } from './gateway-support';

/**
 * GET /meter/v1/consumption against the history route, end to end: readings
 * published on NATS, stored by ingest, answered by the signed gateway. The
 * hourly and quarter-hour points of each local day must add up, to the digit,
 * to that day's history value, over DST changes in Europe/Madrid and in
 * Asia/Kathmandu (+05:45), in the device's unit and in another.
 */
const NOW = '2026-11-21T10:17:00.000Z';
const ORG = 'org_interval';
const OTHER_ORG = 'org_other';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Readings every 37 minutes (not a divisor of an hour) with uneven increments, from a fixed seed. */
function irregular(fromIso: string, toIso: string): { read_at: string; value: string }[] {
  const readings = [];
  let value = 512.25;
  let seed = 11;
  for (let t = Date.parse(fromIso); t <= Date.parse(toIso); t += 37 * 60_000) {
    readings.push({ read_at: new Date(t).toISOString(), value: value.toFixed(3) });
    seed = (seed * 48271) % 2147483647;
    value += (seed % 997) / 1000;
  }
  return readings;
}

/** [device, zone, month of its history, days checked (each with its hourly point count)] */
const METERS = [
  {
    id: 1,
    zone: 'Europe/Madrid',
    month: '2026-03',
    days: { '2026-03-28': 24, '2026-03-29': 23, '2026-03-30': 24 },
    from: '2026-03-27T20:00:00Z',
    to: '2026-03-31T03:00:00Z',
  },
  {
    id: 2,
    zone: 'Europe/Madrid',
    month: '2026-10',
    days: { '2026-10-24': 24, '2026-10-25': 25, '2026-10-26': 24 },
    from: '2026-10-23T20:00:00Z',
    to: '2026-10-27T03:00:00Z',
  },
  { id: 3, zone: 'Asia/Kathmandu', month: '2026-06', days: { '2026-06-01': 24, '2026-06-02': 24 }, from: '2026-05-31T12:00:00Z', to: '2026-06-03T03:00:00Z' },
];

describe('GET /meter/v1/consumption', () => {
  let stack: ConsumptionStack;
  const get = async (target: string, headers: Record<string, string> = {}, org = ORG) => {
    const response = await signedRequest(stack.port, stack.credentials[org]!, { target, headers });
    return { status: response.status, body: JSON.parse(response.text) as Json };
  };

  beforeAll(async () => {
    stack = await startConsumptionStack('interval-e2e', [ORG, OTHER_ORG], { TEST_NOW: NOW });
    let total = 0;
    for (const meter of METERS) {
      await stack.publish(ORG, 'devices', meter.id, { name: `Meter ${meter.id}`, time_zone: meter.zone });
      const readings = irregular(meter.from, meter.to);
      for (let i = 0; i < readings.length; i += 100) await stack.publish(ORG, 'readings', meter.id, readings.slice(i, i + 100));
      total += readings.length;
    }
    await stack.stored(total, { orgId: ORG, deviceId: 3, name: 'Meter 3' });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  /** The history's value of each day of the meter's month, in `unit` (absent: the device's). */
  async function historyDays(id: number, month: string, headers: Record<string, string> = {}): Promise<Map<string, string>> {
    const { status, body } = await get(`/meter/v1/history?device_id=${id}&period=${month}`, headers);
    expect(status).toBe(200);
    return new Map(body.series[0].data_points.map((p: Json) => [p.date.slice(0, 10), p.value]));
  }

  for (const meter of METERS) {
    for (const [interval, unit] of [
      ['PT1H', undefined],
      ['PT15M', undefined],
      ['PT1H', 'gal'],
    ] as const) {
      it(`device ${meter.id} (${meter.zone}), ${interval}${unit ? ` in ${unit}` : ''}: each day's points sum to its history value`, async () => {
        const headers: Record<string, string> = unit ? { 'x-unit': unit } : {};
        const history = await historyDays(meter.id, meter.month, headers);
        for (const [date, hours] of Object.entries(meter.days)) {
          const next = new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
          const { status, body } = await get(`/meter/v1/consumption?device_id=${meter.id}&from=${date}&to=${next}&interval=${interval}`, headers);
          expect(status, JSON.stringify(body)).toBe(200);
          expect(body.time_zone).toBe(meter.zone);
          expect(body.unit).toBe(unit ?? 'm³');
          expect(body.points).toHaveLength(interval === 'PT1H' ? hours : hours * 4);
          expect(
            addDecimals(
              body.points.map((p: Json) => p.value),
              3,
            ),
            `${date} ${interval}`,
          ).toBe(history.get(date));
          expect(body.points.every((p: Json) => p.quality === 'ACTUAL')).toBe(true);
        }
      });
    }
  }

  it('marks the 02:00 hour that a fall-back night repeats by its offsets', async () => {
    const { body } = await get('/meter/v1/consumption?device_id=2&from=2026-10-25T01:00&to=2026-10-25T04:00&interval=PT1H');
    expect(body.from).toBe('2026-10-25T01:00:00+02:00');
    expect(body.points.map((p: Json) => p.start)).toEqual([
      '2026-10-25T01:00:00+02:00',
      '2026-10-25T02:00:00+02:00',
      '2026-10-25T02:00:00+01:00',
      '2026-10-25T03:00:00+01:00',
    ]);
  });

  it('starts Kathmandu hours at a quarter past the UTC hour', async () => {
    const { body } = await get('/meter/v1/consumption?device_id=3&from=2026-06-01T10:00&to=2026-06-01T11:00&interval=PT15M');
    expect(body.points.map((p: Json) => p.start)).toEqual([
      '2026-06-01T10:00:00+05:45',
      '2026-06-01T10:15:00+05:45',
      '2026-06-01T10:30:00+05:45',
      '2026-06-01T10:45:00+05:45',
    ]);
  });

  it('gives P1D the history days and P1M their sum, MISSING days as "0"', async () => {
    const history = await historyDays(2, '2026-10');
    const daily = await get('/meter/v1/consumption?device_id=2&from=2026-10-01&to=2026-11-01&interval=P1D');
    expect(daily.body.points.map((p: Json) => p.value)).toEqual([...history.values()]);
    expect(daily.body.points[0]).toMatchObject({ value: '0', quality: 'MISSING' });
    const monthly = await get('/meter/v1/consumption?device_id=2&from=2026-09-01&to=2026-11-01&interval=P1M');
    expect(monthly.body.points.map((p: Json) => [p.value, p.quality])).toEqual([
      ['0', 'MISSING'],
      [addDecimals([...history.values()], 3), 'ACTUAL'],
    ]);
  });

  it('follows X-Timezone', async () => {
    const { body } = await get('/meter/v1/consumption?device_id=3&from=2026-06-01&to=2026-06-02&interval=PT1H', { 'x-timezone': 'UTC' });
    expect(body.time_zone).toBe('UTC');
    expect(body.points[0].start).toBe('2026-06-01T00:00:00+00:00');
  });

  it.each([
    ['interval=PT30M&from=2026-06-01&to=2026-06-02', 'interval'],
    ['interval=PT1H&from=2026-06-01T10:30&to=2026-06-02', 'from'],
    ['interval=PT1H&from=2026-06-02&to=2026-06-01', 'to'],
    ['interval=PT15M&from=2026-01-01&to=2026-06-01', 'to'],
    ['interval=PT1H&to=2026-06-01', 'from'],
    ['interval=PT1H&from=2026-06-01&to=2026-06-02&channel=2', 'channel'],
  ])('answers 400 naming the field: %s', async (query, field) => {
    const { status, body } = await get(`/meter/v1/consumption?device_id=3&${query}`);
    expect(status).toBe(400);
    expect(body.code).toBe('validation_failed');
    expect(body.errors.map((e: Json) => e.field)).toEqual([field]);
  });

  it("answers 404 for an unknown device and for another organization's", async () => {
    expect((await get('/meter/v1/consumption?device_id=99&from=2026-06-01&to=2026-06-02&interval=PT1H')).status).toBe(404);
    expect((await get('/meter/v1/consumption?device_id=3&from=2026-06-01&to=2026-06-02&interval=PT1H', {}, OTHER_ORG)).status).toBe(404);
  });
});
