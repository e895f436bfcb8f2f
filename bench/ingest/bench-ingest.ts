import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { execFile, fork } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { loadConfig } from '@meter/config';
import { BusNames, platformStreams, type ConsumerSpec } from '@meter/contracts';
import { formatKeyRing, generateKey, parseKeyRing, sodiumReady } from '@meter/crypto';
import { connectNats, ensureConsumer, ensureStream } from '@meter/messaging';
import { PgArrayWriter, quoteIdentifier } from '@meter/persistence';
import { signRequest } from '@meter/signing';
import { migrateAll, simulatedMeter, simulatedReadings } from '@meter/cli';
import { credentialCreatedEvent, publishAuthEvent } from '../../test/harness/credential-events';
import { freePort, percentile, ready, round, startProcess, stopProcess, waitFor } from '../shared/processes';
import { cpuBetween, cpuSnapshot, pidsNamed } from '../shared/process-cpu';
import { readingsConsumer } from '@meter/ingest';
import { oneRowPerReadingBound } from './one-row-bound';
import type { PipelineWorkerInput } from './pipeline-worker';
import type { QueryWorkerInput, QueryWorkerResult } from './query-worker';

/**
 * `npm run bench:ingest`: publish-to-queryable throughput of the ingest
 * against the raw `INSERT ... unnest` rate of the same rows, latency at a
 * steady 5k readings/s, and gateway latency of history and bulk projection.
 * Runs on its own database and bus prefix; prints a Markdown report.
 */
const H = 3600_000;
const THROUGHPUT_METERS = Number(process.env.BENCH_METERS ?? 1000);
const THROUGHPUT_READINGS_PER_METER = Number(process.env.BENCH_READINGS_PER_METER ?? 200);
/** Meters (x readings per meter) ingested before the throughput is measured, like the warm-up requests of part 4; 0 measures a cold process. */
const WARMUP_METERS = Number(process.env.BENCH_WARMUP_METERS ?? 100);
const PER_MESSAGE = 100;
const LATENCY_RATE = 5000; // readings per second
const LATENCY_SECONDS = Number(process.env.BENCH_LATENCY_SECONDS ?? 20);
const QUERY_METERS = 100;
const QUERY_DAYS = 92;
const QUERY_REQUESTS = Number(process.env.BENCH_QUERY_REQUESTS ?? 300);
/** BENCH_SKIP_QUERIES=1 leaves out part 4 (the gateway's query latency) for ingest-only runs. */
/** BENCH_SKIP_ALERT_COST=1 leaves out part 1b (the throughput again with the alert rules off and on). */
const SKIP_ALERT_COST = process.env.BENCH_SKIP_ALERT_COST === '1';
const SKIP_QUERIES = process.env.BENCH_SKIP_QUERIES === '1';

type Message = { subject: string; data: string; device: number; lastReadAt: number; readings: number };

function messagesFor(bus: BusNames, org: string, meters: number, from: number, to: number): Message[] {
  const messages: Message[] = [];
  for (let device = 1; device <= meters; device++) {
    const readings = simulatedReadings(simulatedMeter(device, 'Europe/Madrid', 7), from, to, H);
    for (let i = 0; i < readings.length; i += PER_MESSAGE) {
      const chunk = readings.slice(i, i + PER_MESSAGE);
      messages.push({
        subject: bus.subject(`meter.readings.${org}.${device}`),
        data: JSON.stringify(chunk.map((r) => ({ read_at: new Date(r.readAt).toISOString(), value: r.value.toFixed(3) }))),
        device,
        lastReadAt: chunk[chunk.length - 1].readAt,
        readings: chunk.length,
      });
    }
  }
  return messages;
}

async function publishAll(js: JetStreamClient, messages: readonly Message[], inFlight = 512) {
  const pending = new Set<Promise<unknown>>();
  for (const m of messages) {
    const p = js.publish(m.subject, m.data);
    pending.add(p);
    void p.finally(() => pending.delete(p));
    if (pending.size >= inFlight) await Promise.race(pending);
  }
  await Promise.all(pending);
}

/** Server processes of the database's connections whose application_name is `app` (the ingest's pool). */
async function backendPids(db: Client, app: string): Promise<number[]> {
  const found = await db.query('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1', [app]);
  return found.rows.map((r: { pid: number }) => r.pid);
}

async function count(db: Client, org: string): Promise<number> {
  return Number((await db.query('SELECT coalesce(sum(reading_count), 0) AS n FROM ingest.reading_days WHERE org_id = $1', [org])).rows[0].n);
}

/**
 * Waits until `total` readings of `org` are queryable. The ingest acks a message only after its transaction
 * committed, so the consumer's own counts (nothing pending, nothing awaiting an ack: a cheap JetStream request)
 * say when to look; `count(*)` then confirms, and polling goes on until it agrees. Counting 200,000 rows every
 * 50 ms instead cost Postgres 0.15-0.24 s of CPU per run, taken from the ingest it measures.
 */
async function whenQueryable(db: Client, jsm: JetStreamManager, consumer: ConsumerSpec, org: string, total: number, published: Promise<unknown>) {
  const publishing = settledFlag(published);
  await waitFor(
    async () => publishing.settled && (await drained(jsm, consumer)) && (await count(db, org)) === total,
    600_000,
    `${total} readings of ${org} queryable`,
    10,
  );
}

/** Nothing pending and nothing awaiting an ack on the durable consumer. */
async function drained(jsm: JetStreamManager, consumer: ConsumerSpec): Promise<boolean> {
  const info = await jsm.consumers.info(consumer.stream, consumer.durable);
  return info.num_pending === 0 && info.num_ack_pending === 0;
}

function settledFlag(promise: Promise<unknown>): { settled: boolean } {
  const flag = { settled: false };
  void promise.finally(() => (flag.settled = true));
  return flag;
}

/**
 * Part 2b: the same messages on a bus prefix of their own, consumed by `pipeline-worker.ts` (the ingest's own
 * consume, route and ack steps, no database). Measured from the first publish until the consumer has nothing
 * pending: the rate, and the CPU seconds of the publisher (this process), the local nats-server and the worker.
 */
async function measurePipeline(
  js: JetStreamClient,
  jsm: JetStreamManager,
  natsUrl: string,
  bus: BusNames,
  messages: readonly Message[],
  settings: { batchMessages: number; maxAckPending: number },
) {
  const pipelineBus = new BusNames(`${bus.prefix}pipe`);
  const stream = platformStreams(pipelineBus).readings;
  const consumer = readingsConsumer(pipelineBus, settings.maxAckPending);
  await ensureStream(jsm, stream);
  await ensureConsumer(jsm, consumer);
  const input: PipelineWorkerInput = { natsUrl, busPrefix: pipelineBus.prefix, ...settings };
  const worker = fork(join(__dirname, 'pipeline-worker.js'), [JSON.stringify(input)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  // A worker that dies ends the measurement at once instead of leaving it to wait for a drain that never comes.
  let exit: { code: number | null } | undefined;
  worker.once('exit', (code) => (exit = { code }));
  const failIfExited = () => {
    if (exit) throw new Error(`the pipeline worker exited (${exit.code})`);
  };
  let published: Promise<void> | undefined;
  try {
    await new Promise((resolve) => {
      worker.once('message', resolve);
      worker.once('exit', resolve);
    });
    failIfExited();
    const republished = messages.map((m) => ({ ...m, subject: pipelineBus.subject(bus.unprefixed(m.subject)) }));
    const natsPids = pidsNamed('nats-server');
    const cpu0 = { worker: cpuSnapshot([worker.pid!]), nats: cpuSnapshot(natsPids), publisher: cpuSnapshot([process.pid]) };
    const t0 = performance.now();
    published = publishAll(js, republished);
    const publishing = settledFlag(published);
    await waitFor(async () => exit !== undefined || (publishing.settled && (await drained(jsm, consumer))), 600_000, 'the pipeline bench drained', 10);
    failIfExited();
    const seconds = (performance.now() - t0) / 1000;
    return {
      rate: republished.reduce((n, m) => n + m.readings, 0) / seconds,
      cpu: {
        publisher: cpuBetween(cpu0.publisher, cpuSnapshot([process.pid])),
        nats: natsPids.length ? cpuBetween(cpu0.nats, cpuSnapshot(natsPids)) : undefined,
        worker: cpuBetween(cpu0.worker, cpuSnapshot([worker.pid!])),
      },
    };
  } finally {
    worker.kill();
    await published?.catch(() => undefined); // the stream goes only once nothing is still being published to it
    await jsm.streams.delete(stream.name).catch(() => undefined);
  }
}

async function main() {
  const base = loadConfig();
  const id = Date.now().toString(36);
  const databaseUrl = Object.assign(new URL(base.DATABASE_URL), { pathname: `/meter_bench_${id}` }).toString();
  await migrateAll(databaseUrl);
  const bus = new BusNames(`bench${id}`);
  await sodiumReady();
  const ringText = formatKeyRing([generateKey('b1')]);
  const [ingestPort, gatewayPort] = [await freePort(), await freePort()];
  // BENCH_INGEST_REPLICAS: ingest processes sharing the one durable consumer (default 1).
  const replicas = Number(process.env.BENCH_INGEST_REPLICAS ?? 1);
  const extraPorts = await Promise.all(Array.from({ length: replicas - 1 }, () => freePort()));
  const env = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    HTTP_HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    REDIS_URL: base.REDIS_URL,
    NATS_URL: base.NATS_URL,
    BUS_PREFIX: bus.prefix,
    REDIS_KEY_PREFIX: `bench${id}:`,
    CREDENTIAL_KEYRING: ringText,
    RATE_LIMIT_PER_MINUTE: '1000000',
    INGEST_PORT: String(ingestPort),
    // The raw insert below uses the same transaction size and connection count.
    INGEST_BATCH_MESSAGES: String(base.INGEST_BATCH_MESSAGES),
    INGEST_CONCURRENCY: String(base.INGEST_CONCURRENCY),
    GATEWAY_PORT: String(gatewayPort),
  };
  // BENCH_INGEST_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the ingest process.
  const ingestNodeArgs = (process.env.BENCH_INGEST_NODE_ARGS ?? '').split(' ').filter(Boolean);
  let ingest = startProcess('apps/ingest/src/main.js', env, { nodeArgs: ingestNodeArgs });
  const moreIngest = extraPorts.map((port) => startProcess('apps/ingest/src/main.js', { ...env, INGEST_PORT: String(port) }));
  // BENCH_GATEWAY_NODE_ARGS profiles the gateway the same way.
  const gateway = startProcess('apps/gateway/src/main.js', env, { nodeArgs: (process.env.BENCH_GATEWAY_NODE_ARGS ?? '').split(' ').filter(Boolean) });
  const nc = await connectNats(base.NATS_URL, 'bench-ingest');
  // The durable consumer the ingest processes share: drained means every message was committed and acked.
  const ingestConsumer = readingsConsumer(bus, base.INGEST_MAX_ACK_PENDING);
  const js = jetstream(nc);
  const jsm = await jetstreamManager(nc);
  const db = new Client({ connectionString: databaseUrl });
  const report: string[] = [];
  const say = (line: string) => {
    console.error(line);
    report.push(line);
  };
  try {
    await waitFor(
      async () => (await ready(ingestPort)) && (await ready(gatewayPort)) && (await Promise.all(extraPorts.map(ready))).every(Boolean),
      60_000,
      'ingest and gateway ready',
    ).catch((e: Error) => {
      throw new Error(`${e.message}\n${ingest.log()}\n${gateway.log()}`);
    });
    await db.connect();
    const now = Math.floor(Date.now() / H) * H;

    // BENCH_QUERIES_ONLY=1 skips parts 1-3 (throughput, raw rate, latency) and measures only the queries.
    const ingestParts = process.env.BENCH_QUERIES_ONLY === '1' ? undefined : await measureIngest();
    async function measureIngest() {
      // 1. Throughput: 1,000 meters, 100 readings per message, publish to queryable, after a warm-up of other meters
      // (the process has compiled its hot code and sized its heap, as a running ingest has).
      if (WARMUP_METERS > 0) {
        const warmup = messagesFor(bus, 'bench_warmup', WARMUP_METERS, now - (THROUGHPUT_READINGS_PER_METER - 1) * H, now);
        await whenQueryable(
          db,
          jsm,
          ingestConsumer,
          'bench_warmup',
          warmup.reduce((n, m) => n + m.readings, 0),
          publishAll(js, warmup),
        );
      }
      const tpMessages = messagesFor(bus, 'bench_tp', THROUGHPUT_METERS, now - (THROUGHPUT_READINGS_PER_METER - 1) * H, now);
      const tpTotal = tpMessages.reduce((n, m) => n + m.readings, 0);
      // CPU seconds of the ingest processes and of their Postgres connections: steadier than wall time on a shared machine.
      const ingestPids = [ingest, ...moreIngest].map((p) => p.child.pid!);
      const pollPid = [Number((await db.query('SELECT pg_backend_pid() AS pid')).rows[0].pid)];
      const natsPids = pidsNamed('nats-server');
      const cpu0 = {
        node: cpuSnapshot(ingestPids),
        pg: cpuSnapshot(await backendPids(db, 'ingest')),
        poll: cpuSnapshot(pollPid),
        nats: cpuSnapshot(natsPids),
        publisher: cpuSnapshot([process.pid]),
      };
      const t0 = performance.now();
      const published = publishAll(js, tpMessages).then(() => performance.now() - t0);
      await whenQueryable(db, jsm, ingestConsumer, 'bench_tp', tpTotal, published);
      const tpSeconds = (performance.now() - t0) / 1000;
      const ingestCpu = {
        node: cpuBetween(cpu0.node, cpuSnapshot(ingestPids)),
        pg: cpuBetween(cpu0.pg, cpuSnapshot(await backendPids(db, 'ingest'))),
        poll: cpuBetween(cpu0.poll, cpuSnapshot(pollPid)),
        nats: natsPids.length ? cpuBetween(cpu0.nats, cpuSnapshot(natsPids)) : undefined,
        publisher: cpuBetween(cpu0.publisher, cpuSnapshot([process.pid])),
      };
      const publishSeconds = (await published) / 1000;
      const ingestRate = tpTotal / tpSeconds;

      // 1b. The alert rules' cost: the same throughput on a fresh ingest with INGEST_ALERT_RULES=off, then on again,
      // each after its own warm-up (one ingest process only), beside part 1's run with them on.
      const alertRuns = replicas === 1 && !SKIP_ALERT_COST ? await alertRulesCost() : [];
      async function alertRulesCost() {
        const runs: { rules: 'on' | 'off'; rate: number; nodeCpu: number; pgCpu: number }[] = [
          { rules: 'on', rate: ingestRate, nodeCpu: ingestCpu.node / tpTotal, pgCpu: ingestCpu.pg / tpTotal },
        ];
        for (const rules of ['off', 'on'] as const) {
          await stopProcess(ingest.child);
          ingest = startProcess('apps/ingest/src/main.js', { ...env, INGEST_ALERT_RULES: rules }, { nodeArgs: ingestNodeArgs });
          await waitFor(() => ready(ingestPort), 60_000, `ingest with alert rules ${rules} ready`);
          const warm = messagesFor(bus, `bench_warmup_${rules}${runs.length}`, WARMUP_METERS || 1, now - (THROUGHPUT_READINGS_PER_METER - 1) * H, now);
          await whenQueryable(
            db,
            jsm,
            ingestConsumer,
            `bench_warmup_${rules}${runs.length}`,
            warm.reduce((n, m) => n + m.readings, 0),
            publishAll(js, warm),
          );
          const org = `bench_tp_${rules}${runs.length}`;
          const messages = messagesFor(bus, org, THROUGHPUT_METERS, now - (THROUGHPUT_READINGS_PER_METER - 1) * H, now);
          const pids = [ingest.child.pid!];
          const before = { node: cpuSnapshot(pids), pg: cpuSnapshot(await backendPids(db, 'ingest')) };
          const started = performance.now();
          await whenQueryable(db, jsm, ingestConsumer, org, tpTotal, publishAll(js, messages));
          const seconds = (performance.now() - started) / 1000;
          runs.push({
            rules,
            rate: tpTotal / seconds,
            nodeCpu: cpuBetween(before.node, cpuSnapshot(pids)) / tpTotal,
            pgCpu: cpuBetween(before.pg, cpuSnapshot(await backendPids(db, 'ingest'))) / tpTotal,
          });
        }
        return runs;
      }

      // 2. The raw rate: the same rows, INSERT ... SELECT FROM unnest into a bare table, in the ingest's transactions
      // (INGEST_BATCH_MESSAGES x 100 rows) on as many connections as it writes with (INGEST_CONCURRENCY). The
      // parameters are built before the clock starts, so this measures Postgres alone, in two forms: arrays as text
      // (`{...}` literals) and arrays in Postgres's binary form, as the ingest sends its own (PgArrayWriter).
      const rows = tpMessages.flatMap((m) =>
        (JSON.parse(m.data) as { read_at: string; value: string }[]).map((r) => ({ device: m.device, readAt: Date.parse(r.read_at), value: Number(r.value) })),
      );
      const rawBatchRows = base.INGEST_BATCH_MESSAGES * PER_MESSAGE;
      const lanes = [
        db,
        ...(await Promise.all(
          Array.from({ length: base.INGEST_CONCURRENCY - 1 }, async () => {
            const client = new Client({ connectionString: databaseUrl });
            await client.connect();
            return client;
          }),
        )),
      ];
      const arrayText = (values: readonly (string | number)[]) => `{${values.join(',')}}`;
      const binaryColumns = (batch: typeof rows) => {
        const columns = [
          PgArrayWriter.text(batch.length),
          PgArrayWriter.int8(batch.length),
          PgArrayWriter.int2(batch.length),
          PgArrayWriter.timestamptz(batch.length),
          PgArrayWriter.float8(batch.length),
        ] as const;
        for (const r of batch) {
          columns[0].text('bench_tp');
          columns[1].int8(r.device);
          columns[2].int2(1);
          columns[3].timestamptz(r.readAt);
          columns[4].float8(r.value);
        }
        return columns.map((c) => c.finish());
      };
      const batches: { text: string[]; binary: Buffer[] }[] = [];
      for (let i = 0; i < rows.length; i += rawBatchRows) {
        const batch = rows.slice(i, i + rawBatchRows);
        batches.push({
          text: [
            arrayText(batch.map(() => 'bench_tp')),
            arrayText(batch.map((r) => r.device)),
            arrayText(batch.map(() => 1)),
            arrayText(batch.map((r) => r.readAt)),
            arrayText(batch.map((r) => r.value)),
          ],
          binary: binaryColumns(batch),
        });
      }
      const rawPids = await Promise.all(lanes.map(async (client) => Number((await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid)));
      const rawStatements = {
        text: 'SELECT o, d, c, to_timestamp(t / 1000.0), v FROM unnest($1::text[], $2::bigint[], $3::smallint[], $4::float8[], $5::float8[]) AS u(o, d, c, t, v)',
        binary: 'SELECT * FROM unnest($1::text[], $2::bigint[], $3::smallint[], $4::timestamptz[], $5::float8[])',
      };
      /** Inserts every batch into a fresh bare table with the read model's key; rows/s and Postgres CPU seconds. */
      const rawInsert = async (table: string, form: 'text' | 'binary') => {
        await db.query(`CREATE TABLE ${table} (org_id text COLLATE "C", device_id bigint, channel smallint, read_at timestamptz, value float8,
          PRIMARY KEY (org_id, device_id, channel, read_at))`);
        const cpu0 = cpuSnapshot(rawPids);
        const started = performance.now();
        await Promise.all(
          lanes.map(async (client, lane) => {
            for (let b = lane; b < batches.length; b += lanes.length) {
              await client.query('BEGIN');
              await client.query(`INSERT INTO ${table} ${rawStatements[form]}`, batches[b][form] as unknown[]);
              await client.query('COMMIT');
            }
          }),
        );
        const measured = { rate: rows.length / ((performance.now() - started) / 1000), pgCpu: cpuBetween(cpu0, cpuSnapshot(rawPids)) };
        await db.query(`DROP TABLE ${table}`); // no autovacuum of it during the next parts
        return measured;
      };
      // Each form twice, alternating, into fresh tables; the faster run of each counts (a checkpoint or the other's
      // autovacuum can fall into one run).
      const runs: { form: 'text' | 'binary'; rate: number; pgCpu: number }[] = [];
      for (const round of [1, 2])
        for (const form of ['text', 'binary'] as const) runs.push({ form, ...(await rawInsert(`public.raw_readings_${form}_${round}`, form)) });
      const best = (form: 'text' | 'binary') => runs.filter((r) => r.form === form).reduce((a, b) => (b.rate > a.rate ? b : a));
      const [rawText, rawBinary] = [best('text'), best('binary')];
      for (const client of lanes.slice(1)) await client.end();

      // 2b. The pipeline without Postgres: what the bus, the publisher and the ingest's own steps before the database
      // cost, whatever the write design.
      const pipeline = await measurePipeline(js, jsm, base.NATS_URL, bus, tpMessages, {
        batchMessages: base.INGEST_BATCH_MESSAGES,
        maxAckPending: base.INGEST_MAX_ACK_PENDING,
      });

      // 3. Latency at a steady 5,000 readings/s (50 messages of 100 per second): publish to queryable, per message.
      const latMessages = messagesFor(bus, 'bench_lat', (LATENCY_RATE / PER_MESSAGE) * LATENCY_SECONDS, now - (PER_MESSAGE - 1) * H, now);
      const pendingMarkers = new Map<number, { sentAt: number; device: number; readAt: number }>();
      const latencies: number[] = [];
      // How long JetStream took to acknowledge each publish (stored in the stream): tells a slow bus from a slow ingest.
      const publishAcks: Promise<number>[] = [];
      let done = false;
      const poller = (async () => {
        while (!done || pendingMarkers.size > 0) {
          if (pendingMarkers.size > 0) {
            const list = [...pendingMarkers.entries()];
            const found = await db.query(
              // One primary-key probe per marker (LATERAL ... LIMIT 1). As EXISTS, once autovacuum had analyzed the partition
              // filled in part 1 (where bench_lat had no rows yet), the planner hashed every bench_lat reading on each poll,
              // and the poll itself, growing with the run, showed up as ingest latency (p99 up to 0.5 s in some runs).
              `SELECT m.i FROM unnest($1::int[], $2::bigint[], $3::float8[]) AS m(i, d, t)
               CROSS JOIN LATERAL (SELECT 1 FROM ingest.readings r WHERE r.org_id = 'bench_lat' AND r.device_id = m.d AND r.channel = 1
                                   AND r.read_at = to_timestamp(m.t / 1000.0) LIMIT 1) AS found`,
              [list.map(([i]) => i), list.map(([, m]) => m.device), list.map(([, m]) => m.readAt)],
            );
            const at = performance.now();
            for (const { i } of found.rows as { i: number }[]) {
              latencies.push(at - pendingMarkers.get(i)!.sentAt);
              pendingMarkers.delete(i);
            }
          }
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })();
      const l0 = performance.now();
      for (let i = 0; i < latMessages.length; i++) {
        const due = l0 + (i * 1000 * PER_MESSAGE) / LATENCY_RATE;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        const m = latMessages[i];
        const sentAt = performance.now();
        pendingMarkers.set(i, { sentAt, device: m.device, readAt: m.lastReadAt });
        publishAcks.push(js.publish(m.subject, m.data).then(() => performance.now() - sentAt));
      }
      done = true;
      await poller;
      latencies.sort((a, b) => a - b);
      const publishAckTimes = (await Promise.all(publishAcks)).sort((a, b) => a - b);
      return {
        tpTotal,
        tpSeconds,
        publishSeconds,
        ingestRate,
        rawText,
        rawBinary,
        rawBatchRows,
        lanes: lanes.length,
        ingestCpu,
        rawRows: rows.length,
        pipeline,
        latencies,
        publishAckTimes,
        alertRuns,
      };
    }

    // 4. Gateway: history of one meter with 3 months of hourly readings, and a 100-meter bulk projection.
    const queries = SKIP_QUERIES ? undefined : await measureQueries();
    async function measureQueries() {
      const qMessages = messagesFor(bus, 'bench_q', QUERY_METERS, now - QUERY_DAYS * 24 * H, now);
      const qTotal = qMessages.reduce((n, m) => n + m.readings, 0);
      const q0 = performance.now();
      await whenQueryable(db, jsm, ingestConsumer, 'bench_q', qTotal, publishAll(js, qMessages));
      const qRate = qTotal / ((performance.now() - q0) / 1000);
      const { event, credential } = credentialCreatedEvent(parseKeyRing(ringText), { orgId: 'bench_q', name: 'bench' });
      await publishAuthEvent(js, bus, event);
      const headers = { 'x-timezone': 'Asia/Kolkata' };
      const signedGet = (target: string) =>
        fetch(`http://127.0.0.1:${gatewayPort}${target}`, {
          headers: { ...headers, authorization: signRequest({ ...credential, method: 'GET', target }).authorization },
        });
      await waitFor(
        async () => {
          const response = await signedGet('/meter/v1/devices?limit=1');
          await response.arrayBuffer();
          return response.status === 200;
        },
        10_000,
        'credential known',
      );
      const previousMonth = new Date(now);
      previousMonth.setUTCMonth(previousMonth.getUTCMonth() - 1);
      const routes: [string, string, Record<string, string>?][] = [
        ['history 7D', '/meter/v1/history?device_id=1&period=7D'],
        ['history 7D, X-Unit: gal', '/meter/v1/history?device_id=1&period=7D', { 'x-unit': 'gal' }],
        ['history CURRENT_MONTH', '/meter/v1/history?device_id=1&period=CURRENT_MONTH'],
        ['history YYYY-MM (previous month)', `/meter/v1/history?device_id=1&period=${previousMonth.toISOString().slice(0, 7)}`],
        ['history/3m', '/meter/v1/history/3m?device_id=1'],
        ['history/3m, X-Unit: gal', '/meter/v1/history/3m?device_id=1', { 'x-unit': 'gal' }],
        ['projection (one meter)', '/meter/v1/projection?device_id=1'],
        ['projection/bulk (100 meters)', `/meter/v1/projection/bulk?device_ids=${Array.from({ length: QUERY_METERS }, (_, i) => i + 1).join(',')}`],
      ];
      const queryRows: string[] = [];
      // The calls come from a client process of its own (query-worker.ts), all routes in turn.
      const input: QueryWorkerInput = {
        port: gatewayPort,
        credential,
        headers,
        routes: routes.map(([name, target, extra]) => ({ name, target, headers: extra })),
        warmup: 20,
        requests: QUERY_REQUESTS,
      };
      const { stdout } = await promisify(execFile)(process.execPath, [join(__dirname, 'query-worker.js'), JSON.stringify(input)], { maxBuffer: 1 << 22 });
      for (const { name, times, inside } of (JSON.parse(stdout) as QueryWorkerResult).routes) {
        queryRows.push(
          `| ${name} | ${QUERY_REQUESTS} | ${round(percentile(times, 50), 2)} | ${round(percentile(times, 99), 2)} | ${round(times[times.length - 1], 2)} | ` +
            `${inside.within5ms} / ${inside.within10ms} of ${inside.total} |`,
        );
      }
      return { qTotal, qRate, queryRows };
    }

    say(
      `Run ${new Date().toISOString()}, ${(await import('node:os')).cpus().length} CPUs, load average ${(await import('node:os'))
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} at the end.`,
    );
    say('');
    say('| measure | value |');
    say('|---|---|');
    say(`| ingest processes on the one durable consumer | ${replicas} |`);
    if (ingestParts) {
      const {
        tpTotal,
        tpSeconds,
        publishSeconds,
        ingestRate,
        rawText,
        rawBinary,
        rawBatchRows,
        lanes,
        ingestCpu,
        rawRows,
        pipeline,
        latencies,
        publishAckTimes,
        alertRuns,
      } = ingestParts;
      const perThousand = (seconds: number, n: number) => round((seconds * 1e6) / n, 2);
      const orNone = (seconds: number | undefined, n: number) => (seconds === undefined ? 'n/a (no local nats-server)' : perThousand(seconds, n));
      const raw = rawText.rate >= rawBinary.rate ? rawText : rawBinary;
      const bound = (pgCpuPerRow: number) =>
        oneRowPerReadingBound({ cpus: availableParallelism(), readings: tpTotal, pipelineCpu: pipeline.cpu, pgCpuPerRow, rawRate: raw.rate });
      const [bareRows, readModelRows] = [bound(raw.pgCpu / rawRows), bound(ingestCpu.pg / tpTotal)];
      say(`| readings published (${THROUGHPUT_METERS} meters, ${PER_MESSAGE} per message), after a warm-up of ${WARMUP_METERS} other meters | ${tpTotal} |`);
      say(`| publish to all queryable | ${round(tpSeconds, 2)} s (publishing alone ${round(publishSeconds, 2)} s) |`);
      say(`| ingest rate, publish to queryable | ${Math.round(ingestRate)} readings/s |`);
      if (alertRuns.length > 0) {
        const rate = (rules: 'on' | 'off') => alertRuns.filter((r) => r.rules === rules).map((r) => Math.round(r.rate));
        const mean = (rules: 'on' | 'off', field: 'rate' | 'nodeCpu' | 'pgCpu') => {
          const list = alertRuns.filter((r) => r.rules === rules);
          return list.reduce((sum, r) => sum + r[field], 0) / list.length;
        };
        say(
          `| the same with the alert rules on / off (INGEST_ALERT_RULES; runs in order on, off, on, each off and on on a fresh process after a warm-up) | ${rate('on').join(', ')} / ${rate('off').join(', ')} readings/s: the rules cost ${round((1 - mean('on', 'rate') / mean('off', 'rate')) * 100)} % of the rate |`,
        );
        say(
          `| CPU per 1,000 readings with the alert rules on / off: ingest (Node), its Postgres connections | ${round(mean('on', 'nodeCpu') * 1e6, 2)} / ${round(mean('off', 'nodeCpu') * 1e6, 2)} ms, ${round(mean('on', 'pgCpu') * 1e6, 2)} / ${round(mean('off', 'pgCpu') * 1e6, 2)} ms |`,
        );
      }
      say(
        `| raw INSERT ... unnest of the same rows into a bare table (${rawBatchRows} rows per transaction, ${lanes} connections), arrays as text, faster of two runs | ${Math.round(rawText.rate)} rows/s (ratio ${round(ingestRate / rawText.rate, 2)}) |`,
      );
      say(
        `| the same, arrays in binary form (as the ingest sends them) | ${Math.round(rawBinary.rate)} rows/s (ratio ${round(ingestRate / rawBinary.rate, 2)}) |`,
      );
      say(`| ratio ingest / raw (the faster raw) | ${round(ingestRate / raw.rate, 2)} |`);
      say(
        `| CPU per 1,000 readings: ingest (Node) / its Postgres connections / raw insert's Postgres, text / binary | ${perThousand(ingestCpu.node, tpTotal)} / ${perThousand(ingestCpu.pg, tpTotal)} / ${perThousand(rawText.pgCpu, rawRows)} / ${perThousand(rawBinary.pgCpu, rawRows)} ms |`,
      );
      say(
        `| CPU per 1,000 readings of the bus and the collector while the ingest ran: nats-server / publisher (the benchmark process, its polling included) | ${orNone(ingestCpu.nats, tpTotal)} / ${perThousand(ingestCpu.publisher, tpTotal)} ms |`,
      );
      say(`| Postgres CPU of the benchmark's own polling while the ingest ran | ${round(ingestCpu.poll, 2)} s |`);
      say(
        `| the pipeline without Postgres: the same messages published, then pulled, validated and acked by the ingest's own code (pipeline-worker.ts), no database | ${Math.round(pipeline.rate)} readings/s |`,
      );
      say(
        `| CPU per 1,000 readings there: publisher / nats-server / the ingest's steps before the database | ${perThousand(pipeline.cpu.publisher, tpTotal)} / ${orNone(pipeline.cpu.nats, tpTotal)} / ${perThousand(pipeline.cpu.worker, tpTotal)} ms |`,
      );
      say(
        `| highest rate one Postgres row per reading allows on these ${bareRows.cpus} CPUs, all busy: the pipeline's CPU plus the raw insert's Postgres CPU per row (the faster raw form), nothing else | ${Math.round(bareRows.rate)} readings/s (ratio ${round(bareRows.ratio, 2)}) |`,
      );
      say(
        `| the same with the ingest's own Postgres CPU per reading (the read model's rows as they are) | ${Math.round(readModelRows.rate)} readings/s (ratio ${round(readModelRows.ratio, 2)}) |`,
      );
      say(
        `| Postgres CPU per row, raw insert (the faster form) / ingest: the ratio where Postgres alone limits both (the bus and the collectors on other machines) | ${round(raw.pgCpu / rawRows / (ingestCpu.pg / tpTotal), 2)} |`,
      );
      say(
        `| steady ${LATENCY_RATE} readings/s for ${LATENCY_SECONDS} s: publish to queryable p50 / p99 / max | ${round(percentile(latencies, 50))} / ${round(percentile(latencies, 99))} / ${round(latencies[latencies.length - 1])} ms (${latencies.length} messages) |`,
      );
      say(
        `| of which JetStream acknowledging the publish (the message stored in the stream) p50 / p99 / max | ${round(percentile(publishAckTimes, 50))} / ${round(percentile(publishAckTimes, 99))} / ${round(publishAckTimes[publishAckTimes.length - 1])} ms |`,
      );
    }
    if (queries) {
      say(
        `| ${QUERY_METERS} meters x ${QUERY_DAYS} days hourly (${queries.qTotal} readings), publish to queryable | ${Math.round(queries.qRate)} readings/s |`,
      );
      say('');
      say(
        '| gateway route (signed, X-Timezone Asia/Kolkata; 3 months of hourly readings per meter), timed by a client process of its own | requests | p50 ms | p99 ms | max ms | ' +
          'inside the gateway (its own histogram): within 5 ms / within 10 ms |',
      );
      say('|---|---|---|---|---|---|');
      for (const row of queries.queryRows) say(row);
    }
    console.log(report.join('\n'));
  } finally {
    await stopProcess(gateway.child);
    await stopProcess(ingest.child);
    for (const p of moreIngest) await stopProcess(p.child);
    await db.end().catch(() => undefined);
    for await (const name of jsm.streams.names()) if (name.startsWith(bus.stream(''))) await jsm.streams.delete(name);
    await nc.close();
    const admin = new Client({ connectionString: base.DATABASE_URL.replace(/\/[^/]*$/, '/postgres') });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(`meter_bench_${id}`)} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
