import { connectAsync, type MqttClient } from 'mqtt';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort, isolatedInfra, natsServerBinary, PrivateNats, startReadyApp, type IsolatedInfra, type PlatformProcess } from '@meter/testing';
import { authDataSource, call, login, newOrg, startAuth } from './auth-support';

/**
 * Nothing acknowledged is lost, nothing is stored twice: collectors killed
 * with SIGKILL while 10,000 QoS 1 readings are in flight from a client that
 * sends again what was not acknowledged (MQTT.js replays its unacknowledged
 * publishes on reconnect), and a private NATS stopped for 10 s (no PUBACK,
 * HTTP 503 until it returns). Every process runs as its deploy/ NATS user.
 */
describe.skipIf(!natsServerBinary)('collectors durability', () => {
  let infra: IsolatedInfra;
  let nats: PrivateNats;
  let authDb: DataSource;
  let db: Client;
  const processes: PlatformProcess[] = [];
  let collectors: { process: PlatformProcess; port: number };
  let env: Record<string, string>;
  let mqttPort: number;
  let password: string;
  let username: string;
  const clients: MqttClient[] = [];

  const startCollectors = async (port?: number) => {
    const started = await startReadyApp('collectors', {
      ...env,
      ...nats.env('collectors', '_INBOX_collectors'),
      COLLECTORS_MQTT_PORT: String(mqttPort),
      ...(port ? { COLLECTORS_PORT: String(port) } : {}),
    });
    processes.push(started.process);
    return started;
  };
  const stored = async (deviceId: number) =>
    (
      await db.query(
        'SELECT count(*)::int AS n, count(DISTINCT read_at)::int AS distinct_times, coalesce(sum(value), 0)::float8 AS total FROM ingest.readings WHERE device_id = $1',
        [deviceId],
      )
    ).rows[0] as {
      n: number;
      distinct_times: number;
      total: number;
    };
  const reading = (i: number) => JSON.stringify({ read_at: new Date(Date.UTC(2026, 9, 1) + i * 60_000).toISOString(), value: i });

  beforeAll(async () => {
    infra = await isolatedInfra();
    nats = await PrivateNats.start({ jetstream: true });
    env = infra.env({ DATA_DIR: `.data/test-${infra.busPrefix}`, COLLECTORS_PUBLISH_TIMEOUT_MS: '1000' });
    mqttPort = await freePort();
    const auth = await startAuth(infra, { ...env, ...nats.env('auth', '_INBOX_auth') });
    processes.push(auth.process);
    processes.push((await startReadyApp('ingest', { ...env, ...nats.env('ingest') })).process);
    collectors = await startCollectors();
    authDb = await authDataSource({ DATABASE_URL: infra.databaseUrl }, 'collectors-durability');
    db = new Client({ connectionString: infra.databaseUrl });
    await db.connect();
    const org = await newOrg(authDb, { fastHash: true });
    const token = await login(auth.base, org.email, org.password);
    const created = await call(auth.base, 'POST', '/collector-credentials', { token, body: { name: 'durable', format: 'native' } });
    ({ username, password } = created.body as { username: string; password: string });
  }, 120_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true).catch(() => undefined)));
    await Promise.all(processes.map((p) => p.stop()));
    await db?.end();
    await authDb?.destroy();
    await nats?.stop();
    await infra?.cleanup();
  });

  it('stores each of 10,000 QoS 1 readings once when collectors is killed with SIGKILL mid-flight', async () => {
    const client = await connectAsync(`mqtt://127.0.0.1:${mqttPort}`, { username, password, reconnectPeriod: 250, connectTimeout: 3000 });
    clients.push(client);
    let acknowledged = 0;
    const sent = Array.from({ length: 10_000 }, (_, i) => client.publishAsync('readings/1', reading(i), { qos: 1 }).then(() => void (acknowledged += 1)));
    await eventually(async () => acknowledged >= 500, 60_000, 'some readings acknowledged');
    const before = acknowledged;
    collectors.process.signal('SIGKILL');
    await collectors.process.exited;
    expect(before, 'killed while readings were in flight').toBeLessThan(10_000);
    collectors = await startCollectors(collectors.port);
    await Promise.all(sent);
    await eventually(async () => (await stored(1)).n === 10_000, 60_000, '10,000 readings stored').catch(async (error: Error) => {
      throw new Error(`${error.message}: ${JSON.stringify(await stored(1))}\n${processes.map((p) => p.log()).join('\n')}`);
    });
    expect(await stored(1)).toEqual({ n: 10_000, distinct_times: 10_000, total: (9_999 * 10_000) / 2 });
  }, 240_000);

  it('withholds PUBACKs and answers HTTP 503 with Retry-After while NATS is stopped for 10 s, and loses nothing', async () => {
    const http = (body: unknown) =>
      fetch(`http://127.0.0.1:${collectors.port}/collect/v1/native`, {
        method: 'POST',
        headers: { authorization: `Bearer ${password}` },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
    // Signed in before the outage: the credential is trusted from memory meanwhile.
    expect((await http({ device_id: 2, readings: [{ read_at: '2026-10-01T00:00:00Z', value: 0 }] })).status).toBe(202);
    const client = await connectAsync(`mqtt://127.0.0.1:${mqttPort}`, { username, password, reconnectPeriod: 250 });
    clients.push(client);

    await nats.halt();
    const stoppedAt = Date.now();
    let acknowledged = 0;
    const sent = Array.from({ length: 20 }, (_, i) => client.publishAsync('readings/2', reading(i + 1), { qos: 1 }).then(() => void (acknowledged += 1)));
    const during = await http({ device_id: 2, readings: [{ read_at: '2026-10-02T00:00:00Z', value: 100 }] });
    expect(during.status).toBe(503);
    expect(during.headers.get('retry-after')).toBe('2');
    expect(await during.json()).toMatchObject({ code: 'jetstream_unavailable' });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 10_000 - (Date.now() - stoppedAt))));
    expect(acknowledged, 'no PUBACK while NATS is stopped').toBe(0);

    await nats.resume();
    await Promise.all(sent);
    const after = await eventually(
      async () => {
        const response = await http({ device_id: 2, readings: [{ read_at: '2026-10-02T00:00:00Z', value: 100 }] });
        return response.status === 202 ? response : false;
      },
      30_000,
      'HTTP accepted again',
    );
    expect(after.status).toBe(202);
    await eventually(async () => (await stored(2)).n === 22, 30_000, 'every reading stored').catch(async (error: Error) => {
      throw new Error(`${error.message}: ${JSON.stringify(await stored(2))}\n${processes.map((p) => p.log()).join('\n')}`);
    });
    expect(await stored(2)).toEqual({ n: 22, distinct_times: 22, total: 100 + (20 * 21) / 2 });
  }, 120_000);
});
