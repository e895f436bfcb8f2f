import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsumptionStack, type ConsumptionStack } from './consumption-stack';
import { signedRequest, type RawResponse, type TestCredential } from './gateway-support';

/**
 * Units, tariffs and day quality end to end: devices and readings published on
 * NATS, through the ingest process into Postgres, answered by the signed
 * gateway with and without `X-Unit`. "Now" is pinned with TEST_NOW. Expected
 * figures were worked out with exact rational arithmetic from the factors
 * (1 m³ = 1000 L, 1 gal = 3.785411784 L, 1 ft³ = 28.316846592 L, 1 CCF = 100 ft³).
 */
const NOW = '2026-11-21T10:17:00.000Z';
const H = 3600_000;
const LAST = Date.UTC(2026, 10, 21, 10); // the latest reading of every meter
const iso = (ms: number) => new Date(ms).toISOString();

type Json = Record<string, unknown> & { [k: string]: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A header value as a client sends it in UTF-8 (curl from a UTF-8 terminal), as Node reads it: latin1. */
const utf8 = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

/** Hourly readings from `from` to LAST, `perHour` more each hour, starting at `start`. */
function hourly(from: number, perHour: number, start = 1000): { read_at: string; value: string }[] {
  const readings = [];
  for (let t = from, v = start; t <= LAST; t += H, v += perHour) readings.push({ read_at: iso(t), value: v.toFixed(3) });
  return readings;
}

const OCT_31 = Date.UTC(2026, 9, 31);
const BLOCK_EDGE_TARIFF = {
  currency_symbol: '$',
  standing_charge_per_day: 0.5,
  blocks: [
    { up_to: 360, price_per_unit: 1 },
    { up_to: null, price_per_unit: 2 },
  ],
};
const THREE_BLOCKS = {
  currency_symbol: '£',
  standing_charge_per_day: 0,
  blocks: [
    { up_to: 100, price_per_unit: 0.5 },
    { up_to: 360.75, price_per_unit: 1 },
    { up_to: null, price_per_unit: 4 },
  ],
};
const STANDING_ONLY = {
  currency_symbol: 'CHF',
  standing_charge_per_day: 1.25,
  blocks: [
    { up_to: 10, price_per_unit: 2 },
    { up_to: null, price_per_unit: 3 },
  ],
};

/** Device 1 (m³, 3 places, 0.5 m³ an hour) in each unit and zone: the figures every route shows. */
interface UnitCase {
  header: string;
  unit: string;
  zone: 'UTC' | 'Asia/Kolkata';
  /** a whole day; today up to 10:00Z */
  day: string;
  today: string;
  /** summary: the average over 7 days, grouped */
  average7: string;
  /** projected month (360 m³), average day (12 m³), month so far, last register value (2061 m³) */
  projected: string;
  average: string;
  monthToDate: string;
  lastReading: string;
  /** three-month rows: September, October, November so far */
  months: [string, string, string];
}

const UNIT_CASES: UnitCase[] = [
  {
    header: utf8('m³'),
    unit: 'm³',
    zone: 'UTC',
    day: '12.000',
    today: '5.000',
    average7: '11.000',
    projected: '360.000',
    average: '12.000',
    monthToDate: '245.000',
    lastReading: '2061.000',
    months: ['360.000', '372.000', '245.000'],
  },
  {
    header: 'm3',
    unit: 'm³',
    zone: 'Asia/Kolkata',
    day: '12.000',
    today: '7.750',
    average7: '11.393',
    projected: '360.000',
    average: '12.000',
    monthToDate: '247.750',
    lastReading: '2061.000',
    months: ['360.000', '372.000', '247.750'],
  },
  {
    header: 'L',
    unit: 'L',
    zone: 'UTC',
    day: '12000.000',
    today: '5000.000',
    average7: '11,000.000',
    projected: '360000.000',
    average: '12000.000',
    monthToDate: '245000.000',
    lastReading: '2061000.000',
    months: ['360000.000', '372000.000', '245000.000'],
  },
  {
    header: 'l',
    unit: 'L',
    zone: 'Asia/Kolkata',
    day: '12000.000',
    today: '7750.000',
    average7: '11,392.857',
    projected: '360000.000',
    average: '12000.000',
    monthToDate: '247750.000',
    lastReading: '2061000.000',
    months: ['360000.000', '372000.000', '247750.000'],
  },
  {
    header: 'gal',
    unit: 'gal',
    zone: 'UTC',
    day: '3170.065',
    today: '1320.860',
    average7: '2,905.893',
    projected: '95101.939',
    average: '3170.065',
    monthToDate: '64722.153',
    lastReading: '544458.600',
    months: ['95101.939', '98272.003', '64722.153'],
  },
  {
    header: 'GAL',
    unit: 'gal',
    zone: 'Asia/Kolkata',
    day: '3170.065',
    today: '2047.333',
    average7: '3,009.674',
    projected: '95101.939',
    average: '3170.065',
    monthToDate: '65448.626',
    lastReading: '544458.600',
    months: ['95101.939', '98272.003', '65448.626'],
  },
  {
    header: 'ft3',
    unit: 'ft³',
    zone: 'UTC',
    day: '423.776',
    today: '176.573',
    average7: '388.461',
    projected: '12713.280',
    average: '423.776',
    monthToDate: '8652.093',
    lastReading: '72783.528',
    months: ['12713.280', '13137.056', '8652.093'],
  },
  {
    header: utf8('ft³'),
    unit: 'ft³',
    zone: 'Asia/Kolkata',
    day: '423.776',
    today: '273.689',
    average7: '402.335',
    projected: '12713.280',
    average: '423.776',
    monthToDate: '8749.209',
    lastReading: '72783.528',
    months: ['12713.280', '13137.056', '8749.209'],
  },
  {
    header: 'CCF',
    unit: 'CCF',
    zone: 'UTC',
    day: '4.238',
    today: '1.766',
    average7: '3.885',
    projected: '127.133',
    average: '4.238',
    monthToDate: '86.521',
    lastReading: '727.835',
    months: ['127.133', '131.371', '86.521'],
  },
  {
    header: 'ccf',
    unit: 'CCF',
    zone: 'Asia/Kolkata',
    day: '4.238',
    today: '2.737',
    average7: '4.023',
    projected: '127.133',
    average: '4.238',
    monthToDate: '87.492',
    lastReading: '727.835',
    months: ['127.133', '131.371', '87.492'],
  },
];

/** A decimal text with its whole part grouped by thousands: `1234.5` -> `1,234.5`. */
const grouped = (decimal: string) => {
  const [whole, fraction] = decimal.split('.');
  return `${whole.replace(/\B(?=(\d{3})+$)/g, ',')}${fraction === undefined ? '' : `.${fraction}`}`;
};
/** `value_fmt`: grouped thousands, then the unit. */
const withUnit = (decimal: string, unit: string) => `${grouped(decimal)} ${unit}`;
/** `display_value`: one decimal, grouped (none of the values here is a tie at the second decimal). */
const display = (value: number) => grouped(value.toFixed(1));

describe('units, tariffs and day quality through NATS, ingest and the signed gateway', () => {
  let stack: ConsumptionStack;
  let port: number;
  let org: TestCredential;

  const request = (target: string, headers: Record<string, string> = {}, body?: unknown): Promise<RawResponse> =>
    signedRequest(port, org, body === undefined ? { target, headers } : { method: 'POST', target, headers, body: JSON.stringify(body) });
  const json = async (target: string, headers: Record<string, string> = {}, body?: unknown): Promise<Json> => {
    const response = await request(target, headers, body);
    if (response.status !== 200) throw new Error(`${target} -> ${response.status} ${response.text}`);
    return response.json() as Json;
  };
  const panelsOf = (dashboard: Json, index = 0): Record<string, Json> => Object.fromEntries(dashboard.results[index].panels.map((p: Json) => [p.type, p]));

  beforeAll(async () => {
    stack = await startConsumptionStack('units-e2e', ['org_u'], { TEST_NOW: NOW });
    ({ port } = stack);
    org = stack.credentials.org_u;
    const publish = (kind: 'devices' | 'readings', id: number, payload: unknown) => stack.publish('org_u', kind, id, payload);
    const publishReadings = async (id: number, readings: unknown[]) => {
      for (let i = 0; i < readings.length; i += 100) await publish('readings', id, readings.slice(i, i + 100));
    };

    await publish('devices', 1, { name: 'Metric meter', time_zone: 'UTC', price_per_unit: 1.5, currency_symbol: '€' });
    await publish('devices', 2, { name: 'Gallon meter', time_zone: 'UTC', unit: 'GAL', decimal_places: 2 });
    await publish('devices', 3, { name: 'Block edge', time_zone: 'UTC', price_per_unit: 9, tariff: BLOCK_EDGE_TARIFF });
    await publish('devices', 4, { name: 'Three blocks', time_zone: 'UTC', tariff: THREE_BLOCKS });
    await publish('devices', 5, { name: 'Gap meter', time_zone: 'UTC' });
    await publish('devices', 6, { name: 'Standing only', time_zone: 'UTC', tariff: STANDING_ONLY });

    const meter1 = hourly(Date.UTC(2026, 7, 25), 0.5); // as the consumption e2e's meter 20: 12 m³ a UTC day
    const meter2 = hourly(OCT_31, 10); // 240 gal a day
    const meter3 = hourly(OCT_31, 0.5);
    // Meter 5: hourly from 2026-11-16T00:00Z, silent for 48 hours from 12:00Z that day, then hourly again.
    const meter5 = hourly(Date.UTC(2026, 10, 16), 0.5).filter(
      (r) => Date.parse(r.read_at) <= Date.UTC(2026, 10, 16, 12) || Date.parse(r.read_at) >= Date.UTC(2026, 10, 18, 12),
    );
    await publishReadings(1, meter1);
    await publishReadings(2, meter2);
    await publishReadings(3, meter3);
    await publishReadings(4, meter3);
    await publishReadings(5, meter5);
    const total = meter1.length + meter2.length + 2 * meter3.length + meter5.length;
    for (const [id, name] of [
      [1, 'Metric meter'],
      [2, 'Gallon meter'],
      [3, 'Block edge'],
      [4, 'Three blocks'],
      [5, 'Gap meter'],
      [6, 'Standing only'],
    ] as const) {
      await stack.stored(total, { orgId: 'org_u', deviceId: id, name });
    }
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('converts every consumption route to each unit, in two zones, to the exact decimal', async () => {
    for (const c of UNIT_CASES) {
      const headers = { 'x-timezone': c.zone, 'x-unit': c.header };
      const label = `${c.header} in ${c.zone}`;

      const history = await json('/meter/v1/history?device_id=1&period=7D', headers);
      const series = history.series[0];
      expect({ label, unit: series.unit, decimal_places: series.decimal_places }).toEqual({ label, unit: c.unit, decimal_places: 3 });
      expect(series.description).toBe(`Consumption per local day (${c.zone}) in ${c.unit}, spread linearly between readings`);
      expect(series.data_points.map((p: Json) => [p.value, p.value_fmt])).toEqual([
        ...Array(6).fill([c.day, withUnit(c.day, c.unit)]),
        [c.today, withUnit(c.today, c.unit)],
      ]);
      expect(series.projection).toEqual({ date: '2026-11-30', value: Number(c.projected) });
      expect(history.summary).toBe(
        `Average ${c.average7} ${c.unit} per day over 7 days; projected ${withUnit(c.projected, c.unit)} for the month ending 2026-11-30.`,
      );

      const months = await json('/meter/v1/history/3m?device_id=1', headers);
      expect(months.series[0].unit).toBe(c.unit);
      expect(months.series[0].rows.map((r: Json) => [r.value, r.value_fmt])).toEqual(c.months.map((m) => [m, withUnit(m, c.unit)]));
      expect(months.series[0].rows[1].by_days[9]).toMatchObject({ date: '2026-10-10', value: c.day, value_fmt: withUnit(c.day, c.unit) });

      const projection = await json('/meter/v1/projection?device_id=1', headers);
      expect(projection).toEqual({
        device_id: '1',
        projected_value: Number(c.projected),
        projected_cost: 540, // 360 m³ at 1.5 € whatever the unit
        unit: c.unit,
        currency_symbol: '€',
        days_used_for_calculation: 20,
        total_days_in_month: 30,
        average_daily_consumption: Number(c.average),
        calculation_date: '2026-11-21',
        projection_date: '2026-11-30',
      });
      expect(await json('/meter/v1/projection/1', headers)).toEqual(projection);
      const { projected_cost: _cost, currency_symbol: _currency, ...withoutCost } = projection;
      expect((await json('/meter/v1/projection/bulk?device_ids=1', headers)).projections).toEqual([withoutCost]);

      const panels = panelsOf(await json('/meter/v1/dashboard', headers, { devices: [{ device_id: 1 }] }));
      const figures = Object.values(panels).map((p) => [p.type, p.value, p.display_value, p.unit]);
      expect(figures).toEqual(
        (
          [
            ['CURRENT_CONSUMPTION', c.monthToDate],
            ['DAILY_ESTIMATE', c.average],
            ['LAST_READING', c.lastReading],
            ['MONTHLY_PROJECTION', c.projected],
          ] as const
        ).map(([type, value]) => [type, Number(value), display(Number(value)), c.unit]),
      );
    }
  });

  it("converts from each device's own unit: a meter counting gallons with 2 places", async () => {
    const own = await json('/meter/v1/history?device_id=2&period=7D');
    expect(own.series[0]).toMatchObject({ unit: 'gal', decimal_places: 2 });
    expect(own.series[0].data_points[0]).toMatchObject({ value: '240.00', value_fmt: '240.00 gal' });
    for (const [unit, day] of [
      ['m³', '0.91'],
      ['L', '908.50'],
      ['ft³', '32.08'],
      ['CCF', '0.32'],
    ]) {
      const body = await json('/meter/v1/history?device_id=2&period=7D', { 'x-unit': utf8(unit) });
      expect(body.series[0].data_points[0]).toMatchObject({ value: day, value_fmt: `${day} ${unit}` });
    }
    // One X-Unit for the whole dashboard: each device converts from its own unit.
    const dashboard = await json('/meter/v1/dashboard', { 'x-unit': 'L' }, { devices: [{ device_id: 1 }, { device_id: 2 }] });
    expect(panelsOf(dashboard, 0).LAST_READING).toMatchObject({ value: 2061000, display_value: '2,061,000.0', unit: 'L' });
    expect(panelsOf(dashboard, 1).MONTHLY_PROJECTION).toMatchObject({ value: 27254.96, display_value: '27,255.0', unit: 'L' }); // 7200 gal
  });

  it("answers byte for byte as without X-Unit when X-Unit names the device's own unit", async () => {
    const targets = [
      '/meter/v1/history?device_id=ID&period=7D',
      '/meter/v1/history?device_id=ID&period=15D',
      '/meter/v1/history?device_id=ID&period=CURRENT_MONTH',
      '/meter/v1/history?device_id=ID&period=2026-10',
      '/meter/v1/history?device_id=ID&period=2026-11',
      '/meter/v1/history/3m?device_id=ID',
      '/meter/v1/projection?device_id=ID',
      '/meter/v1/projection/ID',
      '/meter/v1/projection/bulk?device_ids=ID,ID,999',
      'dashboard',
    ];
    const spellings: [number, string[]][] = [
      [1, ['m3', 'M3', utf8('m³'), 'm³']], // 'm³' as such goes out as ISO-8859-1
      [2, ['gal', 'Gal']],
      [5, ['m3']],
    ];
    for (const [id, headers] of spellings) {
      for (const zone of [undefined, 'Asia/Kolkata']) {
        const zoneHeader: Record<string, string> = zone ? { 'x-timezone': zone } : {};
        for (const target of targets) {
          const send = (extra: Record<string, string>) =>
            target === 'dashboard'
              ? request('/meter/v1/dashboard', { ...zoneHeader, ...extra }, { devices: [{ device_id: id }, { device_id: 999 }] })
              : request(target.replaceAll('ID', String(id)), { ...zoneHeader, ...extra });
          const plain = await send({});
          expect(plain.status).toBe(200);
          for (const header of headers) {
            const named = await send({ 'x-unit': header });
            expect({ id, zone, target, header, status: named.status, body: named.text }).toEqual({ id, zone, target, header, status: 200, body: plain.text });
          }
        }
      }
    }
  });

  it('refuses any other X-Unit with a 400 naming the header, on every consumption route', async () => {
    const routes: [string, unknown?][] = [
      ['/meter/v1/history?device_id=1&period=7D'],
      ['/meter/v1/history/3m?device_id=1'],
      ['/meter/v1/projection?device_id=1'],
      ['/meter/v1/projection/1'],
      ['/meter/v1/projection/bulk?device_ids=1,2'],
      ['/meter/v1/dashboard', { devices: [{ device_id: 1 }] }],
      ['/meter/v1/history?device_id=999&period=7D'], // the header is checked before the device is looked up
    ];
    for (const [target, body] of routes) {
      for (const header of ['kWh', 'gallons', 'm^3', utf8('m²'), 'm3,gal', '']) {
        const response = await request(target, { 'x-unit': header }, body);
        const problem = response.json() as Json;
        expect({ target, header, status: response.status, code: problem.code, field: problem.errors?.[0]?.field }).toEqual({
          target,
          header,
          status: 400,
          code: 'validation_failed',
          field: 'X-Unit',
        });
        expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(problem.errors[0].message).toBe('must be one of m³, L, gal, ft³, CCF (in ASCII also m3 and ft3; any letter case)');
      }
    }
  });

  it("prices the projected month through the tariff's blocks and standing charge, at the block edges", async () => {
    // 0.5 m³ an hour: 360 m³ projected in UTC, 360.75 in New York (its 1 November had 25 hours).
    const cases: [number, string, string | undefined, number, number, string, string][] = [
      // device, zone, X-Unit, projected_value, projected_cost, currency, why
      [3, 'UTC', undefined, 360, 375, '$', '360 at 1 exactly up to the first edge, nothing at 2; 0.5 × 30 days'],
      [3, 'America/New_York', undefined, 360.75, 376.5, '$', '360 at 1 + 0.75 at 2 + 15'],
      [3, 'UTC', 'gal', 95101.939, 375, '$', 'the same money in gallons'],
      [3, 'America/New_York', 'gal', 95300.068, 376.5, '$', 'the same money in gallons'],
      [4, 'UTC', undefined, 360, 310, '£', '100 at 0.5 + 260 at 1, under the second edge'],
      [4, 'America/New_York', undefined, 360.75, 310.75, '£', '100 at 0.5 + 260.75 at 1: exactly the second edge'],
      [4, 'UTC', 'CCF', 127.133, 310, '£', 'the same money in CCF'],
      [6, 'UTC', undefined, 0, 37.5, 'CHF', 'a zero-volume month pays the standing charge: 1.25 × 30'],
      [1, 'UTC', undefined, 360, 540, '€', 'price_per_unit alone: 360 × 1.5'],
    ];
    for (const [id, zone, unit, projected, cost, currency, why] of cases) {
      const headers: Record<string, string> = { 'x-timezone': zone, ...(unit ? { 'x-unit': unit } : {}) };
      const single = await json(`/meter/v1/projection?device_id=${id}`, headers);
      expect({ why, value: single.projected_value, cost: single.projected_cost, currency: single.currency_symbol }).toEqual({
        why,
        value: projected,
        cost,
        currency,
      });
      expect(await json(`/meter/v1/projection/${id}`, headers)).toEqual(single);
      // The dashboard and history show the same projected month.
      const panels = panelsOf(await json('/meter/v1/dashboard', headers, { devices: [{ device_id: id }] }));
      expect(panels.MONTHLY_PROJECTION.value).toBe(projected);
      expect((await json(`/meter/v1/history?device_id=${id}&period=CURRENT_MONTH`, headers)).series[0].projection.value).toBe(projected);
    }
    const bulk = await json('/meter/v1/projection/bulk?device_ids=3,4,6', { 'x-timezone': 'UTC' });
    expect(bulk.projections.map((p: Json) => [p.device_id, p.projected_value, 'projected_cost' in p, 'currency_symbol' in p])).toEqual([
      ['3', 360, false, false],
      ['4', 360, false, false],
      ['6', 0, false, false],
    ]);
  });

  it('marks each day ACTUAL, ESTIMATED or MISSING around a 48-hour gap, in two zones and any unit', async () => {
    // Readings from 2026-11-16T00:00Z, none between 12:00Z that day and 12:00Z on the 18th.
    const expected: Record<string, [string, string][]> = {
      UTC: [
        ['0', 'MISSING'], // the 15th: before the first reading
        ['12.000', 'ESTIMATED'], // its afternoon lies in the 48-hour interval
        ['12.000', 'ESTIMATED'],
        ['12.000', 'ESTIMATED'], // its morning lies in it
        ['12.000', 'ACTUAL'],
        ['12.000', 'ACTUAL'],
        ['5.000', 'ACTUAL'],
      ],
      // +05:30: the first reading is 05:30 on the 16th, the gap 17:30 on the 16th to 17:30 on the 18th.
      'Asia/Kolkata': [
        ['0', 'MISSING'],
        ['9.250', 'ESTIMATED'],
        ['12.000', 'ESTIMATED'],
        ['12.000', 'ESTIMATED'],
        ['12.000', 'ACTUAL'],
        ['12.000', 'ACTUAL'],
        ['7.750', 'ACTUAL'],
      ],
    };
    for (const [zone, days] of Object.entries(expected)) {
      const history = await json('/meter/v1/history?device_id=5&period=7D', { 'x-timezone': zone });
      const points = history.series[0].data_points;
      expect(points.map((p: Json) => [p.value, p.quality])).toEqual(days);
      expect(points[0].alerts.map((a: Json) => a.code)).toEqual(['NO_DATA']);
      expect(points.slice(1).every((p: Json) => p.alerts.length === 0)).toBe(true);
      // Quality does not depend on the unit.
      const inGallons = await json('/meter/v1/history?device_id=5&period=7D', { 'x-timezone': zone, 'x-unit': 'gal' });
      expect(inGallons.series[0].data_points.map((p: Json) => p.quality)).toEqual(days.map(([, quality]) => quality));

      const months = await json('/meter/v1/history/3m?device_id=5', { 'x-timezone': zone });
      const [september, october, november] = months.series[0].rows;
      expect(new Set([...september.by_days, ...october.by_days].map((d: Json) => d.quality))).toEqual(new Set(['MISSING']));
      expect(november.by_days.map((d: Json) => d.quality)).toEqual([...Array(15).fill('MISSING'), ...days.slice(1).map(([, quality]) => quality)]);
      expect(november.by_days.slice(14).map((d: Json) => [d.value, d.quality])).toEqual(days);
      expect('quality' in november).toBe(false); // a month row has none
    }
    // A meter read every hour has ACTUAL days only.
    const steady = await json('/meter/v1/history?device_id=1&period=15D');
    expect(new Set(steady.series[0].data_points.map((p: Json) => p.quality))).toEqual(new Set(['ACTUAL']));
  });
});
