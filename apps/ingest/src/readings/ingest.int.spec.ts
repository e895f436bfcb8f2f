import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { Client } from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@meter/config';
import { intervalsFromReadings, type Interval, type Reading } from '@meter/consumption';
import { DEAD_LETTER_HEADERS, platformStreams } from '@meter/contracts';
import { connectNats } from '@meter/messaging';
import { createHttpApp } from '@meter/platform';
import { eventually, isolatedInfra, type IsolatedInfra } from '@meter/testing';
import { IngestModule } from '../ingest.module';

const ORG = 'org_ingest';
const H = 3600_000;
const T0 = Date.UTC(2026, 9, 20, 0, 0, 0); // 2026-10-20, crosses a month boundary below

describe('ingest of readings and devices into the read model', () => {
  let infra: IsolatedInfra;
  const apps: NestFastifyApplication[] = [];
  let nc: NatsConnection;
  let js: JetStreamClient;
  let db: Client;

  const startIngest = async () => {
    const config = loadConfig(infra.env({ INGEST_BATCH_MESSAGES: '50' }));
    const app = await createHttpApp(IngestModule.forRoot(config), pino({ level: process.env.TEST_LOG ?? 'silent' }));
    await app.init();
    apps.push(app);
    return app;
  };

  const publish = async (kind: 'readings' | 'devices', device: number | string, payload: unknown, org = ORG) => {
    const data = typeof payload === 'string' ? payload : JSON.stringify(payload);
    await js.publish(infra.bus.subject(`meter.${kind}.${org}.${device}`), data);
  };

  const storedIntervals = async (device: number, channel = 1, org = ORG): Promise<Interval[]> => {
    const { rows } = await db.query(
      `SELECT extract(epoch from prev_read_at)*1000 AS start, extract(epoch from read_at)*1000 AS "end", delta, reset
       FROM ingest.readings WHERE org_id = $1 AND device_id = $2 AND channel = $3 AND prev_read_at IS NOT NULL ORDER BY read_at`,
      [org, device, channel],
    );
    return rows.map((r) => ({ start: Number(r.start), end: Number(r.end), delta: r.delta, reset: r.reset }));
  };

  /** The stored running totals must be the running sums of the library's interval deltas. */
  const expectRunningTotals = async (device: number, expected: Interval[], org = ORG) => {
    const { rows } = await db.query('SELECT cum FROM ingest.readings WHERE org_id = $1 AND device_id = $2 AND channel = 1 ORDER BY read_at', [org, device]);
    let running = 0;
    const sums = [0, ...expected.map((i) => (running += i.delta))];
    expect(rows).toHaveLength(sums.length);
    rows.forEach((r: { cum: number }, i: number) => expect(r.cum).toBeCloseTo(sums[i], 9));
  };

  const count = async (device: number, org = ORG) =>
    Number((await db.query('SELECT count(*) AS n FROM ingest.readings WHERE org_id = $1 AND device_id = $2', [org, device])).rows[0].n);

  const iso = (ms: number) => new Date(ms).toISOString();

  /** The ingest's own series from its /metrics (the first process), unlabelled ones by name. */
  const metricValues = async (): Promise<Record<string, number>> => {
    const text = (await apps[0].inject({ method: 'GET', url: '/metrics' })).body;
    const values: Record<string, number> = {};
    for (const line of text.split('\n')) {
      const match = /^(meter_ingest_[a-z_]+) ([0-9.e+-]+)$/.exec(line);
      if (match) values[match[1]] = Number(match[2]);
    }
    return values;
  };

  beforeAll(async () => {
    infra = await isolatedInfra();
    db = new Client({ connectionString: infra.databaseUrl });
    await db.connect();
    nc = await connectNats(infra.natsUrl, 'ingest-test');
    js = jetstream(nc);
    await startIngest();
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
    await nc?.close();
    await db?.end();
    await infra?.cleanup();
  });

  it('stores in-order readings with the interval since each predecessor, as the consumption library computes it', async () => {
    const readings: Reading[] = Array.from({ length: 30 }, (_, i) => ({ readAt: T0 + i * H, value: 100 + i * 0.25 + (i % 3) * 0.01 }));
    const before = await metricValues();
    for (let i = 0; i < readings.length; i += 10) {
      await publish(
        'readings',
        1,
        readings.slice(i, i + 10).map((r) => ({ read_at: iso(r.readAt), value: String(r.value) })),
      );
    }
    await eventually(async () => (await count(1)) === 30, 10_000, '30 readings stored');
    expect(await storedIntervals(1)).toEqual(intervalsFromReadings(readings));
    await expectRunningTotals(1, intervalsFromReadings(readings));
    // The three messages, as the operator sees them: every reading counted once, every message's freshness, batches timed.
    await eventually(
      async () => (await metricValues()).meter_ingest_stored_to_commit_seconds_count - before.meter_ingest_stored_to_commit_seconds_count === 3,
      5_000,
      'metrics',
    );
    const after = await metricValues();
    expect(after.meter_ingest_readings_total - before.meter_ingest_readings_total).toBe(30);
    expect(after.meter_ingest_batch_messages_sum - before.meter_ingest_batch_messages_sum).toBe(3);
    const batches = after.meter_ingest_batch_duration_seconds_count - before.meter_ingest_batch_duration_seconds_count;
    expect(batches).toBeGreaterThanOrEqual(1);
    expect(batches).toBeLessThanOrEqual(3);
    expect(after.meter_ingest_batch_duration_seconds_sum).toBeGreaterThan(before.meter_ingest_batch_duration_seconds_sum);
    expect(after.meter_ingest_stored_to_commit_seconds_sum - before.meter_ingest_stored_to_commit_seconds_sum).toBeLessThan(30);
    expect(after.meter_ingest_batch_retries_total).toBe(0);
  });

  it('ignores repeats, applies corrections, places late and out-of-order readings, treats a decrease as a reset', async () => {
    const base: Reading[] = [0, 2, 4, 6, 8].map((h) => ({ readAt: T0 + h * H, value: 10 + h }));
    await publish(
      'readings',
      2,
      base.map((r) => ({ read_at: iso(r.readAt), value: r.value })),
    );
    await eventually(async () => (await count(2)) === 5, 10_000, 'base readings');
    // a repeat (same value), a correction of 4h, a late reading at 3h splitting 2h..4h, an out-of-order one at 7h,
    // a reset at 10h, a reading at 11h, and a single object with an offset instead of Z (= 12:00Z)
    await publish('readings', 2, { read_at: iso(T0 + 2 * H), value: 12 });
    await publish('readings', 2, [{ read_at: iso(T0 + 4 * H), value: 14.5 }]);
    await publish('readings', 2, [
      { read_at: iso(T0 + 11 * H), value: 3 },
      { read_at: iso(T0 + 10 * H), value: 1 },
    ]);
    await publish('readings', 2, { read_at: iso(T0 + 3 * H), value: 13.2, channel: 1 });
    await publish('readings', 2, { read_at: iso(T0 + 7 * H), value: 17.5 });
    await publish('readings', 2, { read_at: '2026-10-20T17:30:00+05:30', value: 4 });
    const expected = intervalsFromReadings([
      ...base,
      { readAt: T0 + 4 * H, value: 14.5 },
      { readAt: T0 + 3 * H, value: 13.2 },
      { readAt: T0 + 7 * H, value: 17.5 },
      { readAt: T0 + 10 * H, value: 1 },
      { readAt: T0 + 11 * H, value: 3 },
      { readAt: T0 + 12 * H, value: 4 },
    ]);
    await eventually(async () => (await count(2)) === 10, 10_000, 'all readings of device 2');
    await eventually(async () => JSON.stringify(await storedIntervals(2)) === JSON.stringify(expected), 10_000, 'intervals settle');
    expect(expected.filter((i) => i.reset)).toHaveLength(1);
    await expectRunningTotals(2, expected);
    const stored = await db.query(`SELECT value FROM ingest.readings WHERE org_id = $1 AND device_id = 2 AND read_at = $2`, [ORG, iso(T0 + 4 * H)]);
    expect(stored.rows[0].value).toBe(14.5);
  });

  it('registers an unknown device from its first reading, and applies a registration message', async () => {
    await publish('readings', 3, [
      { read_at: iso(T0 + 5 * H), value: 1, channel: 2 },
      { read_at: iso(T0 + 6 * H), value: 2, channel: 2 },
    ]);
    await eventually(async () => (await count(3)) === 2, 10_000, 'device 3 readings');
    let device = (await db.query('SELECT * FROM ingest.devices WHERE org_id = $1 AND device_id = 3', [ORG])).rows[0];
    expect(device).toMatchObject({ name: 'Device 3', channels: 2, time_zone: 'UTC', unit: 'm³', serie: 'water', decimal_places: 3 });
    expect(device.activated_at.toISOString()).toBe(iso(T0 + 5 * H));
    // an earlier reading moves the activation back
    await publish('readings', 3, { read_at: iso(T0 + 2 * H), value: 0.5, channel: 2 });
    await eventually(async () => (await count(3)) === 3, 10_000, 'earlier reading');
    device = (await db.query('SELECT * FROM ingest.devices WHERE org_id = $1 AND device_id = 3', [ORG])).rows[0];
    expect(device.activated_at.toISOString()).toBe(iso(T0 + 2 * H));

    await publish('devices', 3, { name: 'Kitchen', time_zone: 'Asia/Kathmandu', price_per_unit: 2.5, currency_symbol: '$' });
    await eventually(
      async () => (await db.query('SELECT name FROM ingest.devices WHERE org_id = $1 AND device_id = 3', [ORG])).rows[0].name === 'Kitchen',
      10_000,
      'device renamed',
    );
    device = (await db.query('SELECT * FROM ingest.devices WHERE org_id = $1 AND device_id = 3', [ORG])).rows[0];
    expect(device).toMatchObject({ channels: 2, time_zone: 'Asia/Kathmandu', price_per_unit: 2.5, currency_symbol: '$', auto_registered: false });
    expect(device.activated_at.toISOString()).toBe(iso(T0 + 2 * H));
  });

  it('sends what it cannot use to the dead-letter subject with the reason, and moves on', async () => {
    const jsm = await jetstreamManager(nc);
    const deadStream = platformStreams(infra.bus).deadLetters.name;
    await publish('readings', 4, '{not json');
    await publish('readings', 4, { read_at: '2026-10-20 10:00', value: 1 });
    await publish('readings', 4, [{ read_at: iso(T0), value: -1 }]);
    await publish('readings', 'abc', { read_at: iso(T0), value: 1 });
    await publish('devices', 4, { name: 'x', time_zone: '+05:30' });
    await publish('readings', 4, { read_at: iso(T0), value: '7.5' });
    await eventually(async () => (await count(4)) === 1, 10_000, 'the good reading after the bad ones');
    await eventually(async () => (await jsm.streams.info(deadStream)).state.messages === 5, 10_000, 'five dead letters');
    // batches run concurrently, so dead letters arrive in any order: sort them by the original sequence
    const letters: { seq: number; line: string }[] = [];
    for (let seq = 1; seq <= 5; seq++) {
      const m = await jsm.streams.getMessage(deadStream, { seq });
      letters.push({
        seq: Number(m!.header?.get(DEAD_LETTER_HEADERS.sequence)),
        line: `${m!.subject} | ${m!.header?.get(DEAD_LETTER_HEADERS.subject)} | ${m!.header?.get(DEAD_LETTER_HEADERS.reason)}`,
      });
    }
    const reasons = letters.sort((a, b) => a.seq - b.seq).map((l) => l.line);
    expect(reasons[0]).toMatch(/deadletter\.readings \| meter\.readings\.org_ingest\.4 \| payload is not valid UTF-8 JSON/);
    expect(reasons[1]).toMatch(/RFC 3339/);
    expect(reasons[2]).toMatch(/value/);
    expect(reasons[3]).toMatch(/deadletter\.unknown .*device_id must be a positive integer/);
    expect(reasons[4]).toMatch(/deadletter\.devices .*time_zone: must be an IANA time zone name/);
    const payloads = await Promise.all([1, 2, 3, 4, 5].map(async (seq) => new TextDecoder().decode((await jsm.streams.getMessage(deadStream, { seq }))!.data)));
    expect(payloads).toContain('{not json');
  });

  it('gives the same read model with two ingest processes on one consumer as with one', async () => {
    await startIngest();
    const perDevice = new Map<number, Reading[]>();
    const messages: { device: number; items: { read_at: string; value: number }[] }[] = [];
    for (let device = 10; device < 16; device++) {
      const readings: Reading[] = [];
      let value = 1000;
      for (let i = 0; i < 240; i++) {
        value = i === 120 ? 5 : value + ((i * 7919 + device) % 13) / 10;
        readings.push({ readAt: T0 + i * H, value });
      }
      perDevice.set(device, readings);
      // chunks in shuffled order: the two processes see late and out-of-order readings of one device at once
      for (let i = 0; i < readings.length; i += 8) {
        messages.push({ device, items: readings.slice(i, i + 8).map((r) => ({ read_at: iso(r.readAt), value: r.value })) });
      }
    }
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = messages.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [messages[i], messages[j]] = [messages[j], messages[i]];
    }
    await Promise.all(messages.map((m) => publish('readings', m.device, m.items)));
    for (const [device, readings] of perDevice) {
      await eventually(async () => (await count(device)) === readings.length, 20_000, `device ${device} complete`);
      expect(await storedIntervals(device)).toEqual(intervalsFromReadings(readings));
      await expectRunningTotals(device, intervalsFromReadings(readings));
    }
    const partitions = await db.query(
      `SELECT relname FROM pg_inherits JOIN pg_class ON pg_class.oid = inhrelid WHERE inhparent = 'ingest.reading_days'::regclass ORDER BY 1`,
    );
    expect(partitions.rows.map((r) => r.relname)).toEqual(['reading_days_2026_10']);
  });
});
