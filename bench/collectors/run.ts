import { readFileSync } from 'node:fs';
import { connect as connectTcp, type Socket } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connectAsync, type MqttClient } from 'mqtt';
import { Client } from 'pg';
import { loadConfig } from '@meter/config';
import { BusNames } from '@meter/contracts';
import { INSECURE_TEST_PASSWORD_PARAMS } from '@meter/crypto';
import { connectNats } from '@meter/messaging';
import { quoteIdentifier } from '@meter/persistence';
import { authDataSource, createOrganization } from '@meter/auth';
import { migrateAll } from '@meter/cli';
import { processCpuSeconds, pidsNamed, cpuBetween, cpuSnapshot } from '../shared/process-cpu';
import { freePort, ready, round, startProcess, stopProcess, waitFor } from '../shared/processes';

/**
 * `npm run bench:collectors` (docs/benchmarks.md, "Collectors"):
 * 1. MQTT QoS 1 readings per second from MQTT.js through collectors into the read
 *    model (one reading per message, as a wmbusmeters telegram is), against MQTT.js
 *    publishing the same messages at QoS 1 straight to the machine's Mosquitto
 *    (127.0.0.1:1883), the ceiling of a broker alone, in the same run;
 * 2. the resident memory of the collectors process holding BENCH_COLLECTORS_IDLE
 *    (10,000) idle signed-in MQTT connections.
 * Collectors, auth and ingest run from dist/ on a database and bus prefix of their own.
 */
const MESSAGES = Number(process.env.BENCH_COLLECTORS_MESSAGES ?? 20_000);
const IN_FLIGHT = Number(process.env.BENCH_COLLECTORS_IN_FLIGHT ?? 500);
const IDLE = Number(process.env.BENCH_COLLECTORS_IDLE ?? 10_000);
/** Meters the readings are spread over, round robin (a receiver forwards many meters). */
const DEVICES = Number(process.env.BENCH_COLLECTORS_DEVICES ?? 100);
const MOSQUITTO = { host: '127.0.0.1', port: 1883 };

async function main() {
  const base = loadConfig();
  const id = Date.now().toString(36);
  const databaseName = `meter_bench_col_${id}`;
  const databaseUrl = Object.assign(new URL(base.DATABASE_URL), { pathname: `/${databaseName}` }).toString();
  await migrateAll(databaseUrl);
  const bus = new BusNames(`benchcol${id}`);
  const [collectorsPort, mqttPort, ingestPort, authPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const env = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    HTTP_HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    NATS_URL: base.NATS_URL,
    REDIS_URL: base.REDIS_URL,
    REDIS_KEY_PREFIX: `benchcol${id}:`,
    BUS_PREFIX: bus.prefix,
    DATA_DIR: `.data/bench-${id}`,
    COLLECTORS_PORT: String(collectorsPort),
    COLLECTORS_MQTT_PORT: String(mqttPort),
    INGEST_PORT: String(ingestPort),
    AUTH_PORT: String(authPort),
  };
  const processes = [
    startProcess('apps/auth/src/main.js', env),
    startProcess('apps/ingest/src/main.js', env),
    startProcess('apps/collectors/src/main.js', env),
  ];
  const [, , collectors] = processes;
  const db = new Client({ connectionString: databaseUrl });
  const lines: string[] = [];
  const say = (line = '') => {
    lines.push(line);
    process.stdout.write(`${line}\n`);
  };
  try {
    for (const port of [authPort, ingestPort, collectorsPort]) {
      await waitFor(() => ready(port), 60_000, `port ${port} ready`).catch((error: Error) => {
        throw new Error(`${error.message}\n${processes.map((p) => p.log()).join('\n')}`);
      });
    }
    await db.connect();
    const { username, password, orgId } = await collectorCredential(databaseUrl, authPort);

    say(`# bench:collectors (${new Date().toISOString()})`);
    say();
    say(
      `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, load average ${loadavg()
        .map((l) => round(l, 2))
        .join(' ')}`,
    );
    say();
    say(`## 1. QoS 1 readings per second (${MESSAGES.toLocaleString('en')} messages of one reading to ${DEVICES} meters, ${IN_FLIGHT} in flight)`);
    say();
    const ceiling = await publishAll(
      await connectAsync(`mqtt://${MOSQUITTO.host}:${MOSQUITTO.port}`, { reconnectPeriod: 0 }),
      (i) => `bench/${id}/readings/${1 + (i % DEVICES)}`,
    );
    say(
      `- MQTT.js → the machine's Mosquitto, QoS 1 (PUBACKed): **${Math.round(ceiling.perSecond).toLocaleString('en')} messages/s** (${round(ceiling.seconds, 2)} s)`,
    );
    const raw = await jetstreamCeiling(base.NATS_URL, bus);
    say(
      `- nats.js → JetStream directly (one message per reading, each awaiting its PubAck): **${Math.round(raw).toLocaleString('en')} messages/s**, ${round(raw / ceiling.perSecond, 2)} of the broker alone: the bound of one JetStream message per uplink`,
    );
    const client = await connectAsync(`mqtt://127.0.0.1:${mqttPort}`, { username, password, reconnectPeriod: 0 });
    const [ingest] = processes.slice(1, 2);
    const cpuOf = { collectors: collectors.child.pid!, ingest: ingest.child.pid!, bench: process.pid };
    const cpuBefore = Object.fromEntries(Object.entries(cpuOf).map(([name, pid]) => [name, processCpuSeconds(pid) ?? NaN]));
    const natsBefore = cpuSnapshot(pidsNamed('nats-server'));
    const started = performance.now();
    const through = await publishAll(client, (i) => `readings/${1 + (i % DEVICES)}`);
    await waitFor(
      async () =>
        Number((await db.query('SELECT coalesce(sum(reading_count), 0) AS n FROM ingest.reading_days WHERE org_id = $1', [orgId])).rows[0].n) >= MESSAGES,
      600_000,
      'all readings stored',
      50,
    );
    const storedSeconds = (performance.now() - started) / 1000;
    const throughput = MESSAGES / storedSeconds;
    say(
      `- MQTT.js → collectors (QoS 1, PUBACK after JetStream): all PUBACKs in ${round(through.seconds, 2)} s (**${Math.round(through.perSecond).toLocaleString('en')} readings/s** into JetStream)`,
    );
    say(`- first publish → every reading in the read model: ${round(storedSeconds, 2)} s, **${Math.round(throughput).toLocaleString('en')} readings/s**`);
    say(
      `- ratio to the broker alone: **${round(throughput / ceiling.perSecond, 2)}** into the read model, ${round(through.perSecond / ceiling.perSecond, 2)} into JetStream (target ≥ 0.5)`,
    );
    const cpu = Object.entries(cpuOf).map(
      ([name, pid]) => `${name} ${round((((processCpuSeconds(pid) ?? NaN) - cpuBefore[name]) * 1000) / (MESSAGES / 1000), 1)} ms`,
    );
    cpu.push(`nats-server ${round((cpuBetween(natsBefore, cpuSnapshot(pidsNamed('nats-server'))) * 1000) / (MESSAGES / 1000), 1)} ms`);
    say(`- CPU per 1,000 readings: ${cpu.join(', ')} (the publisher is the bench process)`);
    await client.endAsync();

    say();
    say(`## 2. ${IDLE.toLocaleString('en')} idle MQTT connections`);
    say();
    const before = residentMiB(collectors.child.pid!);
    const sockets = await openIdle(mqttPort, username, password, IDLE);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const metrics = await (await fetch(`http://127.0.0.1:${collectorsPort}/metrics`)).text();
    const connected = Number(/^meter_collectors_mqtt_connections (\d+)/m.exec(metrics)?.[1] ?? NaN);
    const held = residentMiB(collectors.child.pid!);
    say(
      `- collectors resident memory: ${before} MiB before, **${held} MiB** with ${connected.toLocaleString('en')} signed-in connections (limit 512 MiB): ${round(((held - before) * 1024) / Math.max(1, connected), 1)} KiB per connection`,
    );
    for (const socket of sockets) socket.destroy();
  } finally {
    await db.end().catch(() => undefined);
    for (const p of processes) await stopProcess(p.child);
    await deleteStreams(base.NATS_URL, bus);
    const admin = new Client({ connectionString: Object.assign(new URL(base.DATABASE_URL), { pathname: '/postgres' }).toString() });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(databaseName)} WITH (FORCE)`);
    await admin.end();
  }
}

/** Publishes MESSAGES at QoS 1 with IN_FLIGHT awaiting their PUBACK; the rate of PUBACKs. */
async function publishAll(client: MqttClient, topic: (i: number) => string): Promise<{ seconds: number; perSecond: number }> {
  const t0 = Date.UTC(2026, 0, 1);
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < MESSAGES) {
      const i = next++;
      await client.publishAsync(topic(i), JSON.stringify({ read_at: new Date(t0 + i * 60_000).toISOString(), value: i }), { qos: 1 });
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  const seconds = (performance.now() - started) / 1000;
  await client.endAsync();
  return { seconds, perSecond: MESSAGES / seconds };
}

/** What JetStream alone takes with IN_FLIGHT publishes awaiting their acknowledgement, on a stream of its own. */
async function jetstreamCeiling(natsUrl: string, bus: BusNames): Promise<number> {
  const nc = await connectNats(natsUrl, 'bench-collectors-raw');
  const jsm = await jetstreamManager(nc);
  const stream = bus.stream('RAW_CEILING');
  await jsm.streams.add({ name: stream, subjects: [bus.subject('rawceiling.>')] });
  const js = jetstream(nc);
  const t0 = Date.UTC(2026, 0, 1);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < MESSAGES) {
        const i = next++;
        const body = JSON.stringify({ read_at: new Date(t0 + i * 60_000).toISOString(), value: i });
        await js.publish(bus.subject(`rawceiling.${1 + (i % DEVICES)}`), body, { msgID: `raw-${i}` });
      }
    }),
  );
  const perSecond = MESSAGES / ((performance.now() - started) / 1000);
  await jsm.streams.delete(stream);
  await nc.close();
  return perSecond;
}

/** The streams the processes declared under the bench's bus prefix (each run would otherwise leave ~20,000 messages behind). */
async function deleteStreams(natsUrl: string, bus: BusNames) {
  const nc = await connectNats(natsUrl, 'bench-collectors-cleanup');
  const jsm = await jetstreamManager(nc);
  for await (const stream of jsm.streams.list()) if (stream.config.name.startsWith(bus.stream(''))) await jsm.streams.delete(stream.config.name);
  await nc.close();
}

/** A credential of a new organization, made through the management API as an admin would. */
async function collectorCredential(databaseUrl: string, authPort: number) {
  const authDb = await authDataSource({ DATABASE_URL: databaseUrl }, 'bench-collectors');
  const email = `bench-${Date.now()}@example.test`;
  const { orgId } = await createOrganization(
    authDb,
    { name: 'Bench collectors', adminEmail: email, adminPassword: 'bench password' },
    INSECURE_TEST_PASSWORD_PARAMS,
  );
  await authDb.destroy();
  const base = `http://127.0.0.1:${authPort}`;
  const login = (await (
    await fetch(`${base}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'bench password' }),
    })
  ).json()) as {
    access_token: string;
  };
  const created = (await (
    await fetch(`${base}/collector-credentials`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${login.access_token}` },
      body: JSON.stringify({ name: 'bench', format: 'native' }),
    })
  ).json()) as { username: string; password: string };
  return { ...created, orgId };
}

/** A raw MQTT 3.1.1 CONNECT (clean session, no keepalive: idle for good) with user name and password. */
function connectPacket(clientId: string, username: string, password: string): Buffer {
  const field = (text: string) => {
    const bytes = Buffer.from(text, 'utf8');
    const length = Buffer.alloc(2);
    length.writeUInt16BE(bytes.length);
    return Buffer.concat([length, bytes]);
  };
  const body = Buffer.concat([field('MQTT'), Buffer.from([4, 0xc2, 0, 0]), field(clientId), field(username), field(password)]);
  const remaining: number[] = [];
  let n = body.length;
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    remaining.push(byte);
  } while (n > 0);
  return Buffer.concat([Buffer.from([0x10, ...remaining]), body]);
}

/** Opens `count` connections, 200 at a time, each waiting for a CONNACK that accepts it. */
async function openIdle(port: number, username: string, password: string, count: number): Promise<Socket[]> {
  const sockets: Socket[] = [];
  const one = (i: number) =>
    new Promise<Socket>((resolve, reject) => {
      const socket = connectTcp(port, '127.0.0.1');
      socket.once('error', reject);
      socket.once('connect', () => socket.write(connectPacket(`idle-${i}`, username, password)));
      socket.once('data', (data: Buffer) => (data[0] === 0x20 && data[3] === 0 ? resolve(socket) : reject(new Error(`CONNACK ${data.toString('hex')}`))));
    });
  for (let i = 0; i < count; i += 200) sockets.push(...(await Promise.all(Array.from({ length: Math.min(200, count - i) }, (_, j) => one(i + j)))));
  return sockets;
}

function residentMiB(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Math.round(Number(match[1]) / 1024) : NaN;
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:collectors: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
