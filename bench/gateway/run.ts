import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { loadConfig } from '@meter/config';
import { BusNames } from '@meter/contracts';
import { formatKeyRing, generateKey, parseKeyRing, sodiumReady } from '@meter/crypto';
import { signRequest } from '@meter/signing';
import { migrateAll } from '@meter/cli';
import { processCpuSeconds } from '../shared/process-cpu';
import { freePort, ready, round, startProcess, stopProcess, waitFor } from '../shared/processes';
import { LatencyRecord } from './latency-record';
import type { PacedLoadResult } from './paced-load';
import { latencyTable, table, writeGatewayResults, type Measurement } from './report';
import { removeStreams, seedCredential, seedDevices } from './seed-credential';

/**
 * `npm run bench:gateway`: the full gateway pipeline (signature check,
 * credential view, Redis sliding window with a raised limit) against a bare
 * Fastify route answering the same bytes, same run, same machine, each
 * request signed by autocannon's setupRequest. Writes docs/benchmarks.md.
 * A benchmark, not a test: it never fails on the numbers.
 */
const ROOT = join(__dirname, '..', '..', '..');
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION = Number(process.env.BENCH_DURATION_SECONDS ?? 15);
const WARMUP = 3;
const TARGET = '/meter/v1/devices';

/** BENCH_GATEWAY_NODE_ARGS: extra node flags for the gateway, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`. */
const GATEWAY_NODE_ARGS = (process.env.BENCH_GATEWAY_NODE_ARGS ?? '').split(' ').filter(Boolean);

/**
 * BENCH_SERVER_CPUS / BENCH_CLIENT_CPUS (taskset lists, e.g. `1` and `0`): pin the servers and
 * the load generator to separate CPUs, so autocannon does not take CPU time from the process measured.
 */
const PIN = process.env.BENCH_PIN !== '0' && cpus().length >= 2 && hasTaskset();
const CLIENT_CPUS = process.env.BENCH_CLIENT_CPUS ?? (PIN ? '0' : undefined);
const SERVER_CPUS = process.env.BENCH_SERVER_CPUS ?? (PIN ? (cpus().length === 2 ? '1' : `1-${cpus().length - 1}`) : undefined);
/**
 * With pinning, the gateway's Redis is a redis-server of the bench's own on the client's CPUs: in
 * production Redis runs on another machine, not on the gateway's cores. BENCH_OWN_REDIS=0 uses REDIS_URL.
 */
const OWN_REDIS = CLIENT_CPUS !== undefined && process.env.BENCH_OWN_REDIS !== '0';
/** BENCH_REDIS_CPUS: where that redis-server runs (a taskset list); the client's CPUs unless set. */
const REDIS_CPUS = process.env.BENCH_REDIS_CPUS ?? CLIENT_CPUS;
/** The target's share of the bare route's throughput; the latency phase offers it to both targets. */
const OFFERED_SHARE = 0.6;
/** Lower offered loads measured too, for the latency curve (BENCH_CURVE_SHARES, comma-separated; empty for none). */
const CURVE_SHARES = (process.env.BENCH_CURVE_SHARES ?? '0.2,0.4').split(',').filter(Boolean).map(Number);
/** Devices of the bench organization, so the answer is a real page (both list shapes). */
const DEVICES = 20;

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The server's CPU time per request in µs between two readings of its CPU seconds; undefined without both. */
function cpuMicrosPerRequest(before: number | undefined, after: number | undefined, requests: number): number | undefined {
  return before === undefined || after === undefined ? undefined : ((after - before) * 1e6) / requests;
}

/** Runs the load and also reports the server's CPU time per request, which other load on the machine disturbs less than req/s. */
async function measure(label: string, port: number, path: string, server: ChildProcess, credential: { accessKey: string; secretKey: string }) {
  const before = processCpuSeconds(server.pid!);
  const run = await cannon(port, credential, DURATION, path);
  const after = processCpuSeconds(server.pid!);
  return measurement(label, run, cpuMicrosPerRequest(before, after, run.result.requests.total));
}

/**
 * The latency phase: an open-loop load at `rate` (see pacedLoad) from a fresh process of its own on the
 * client's CPUs (paced-worker.ts), with the server's CPU time per request.
 */
async function measurePaced(label: string, port: number, server: ChildProcess, credential: { accessKey: string; secretKey: string }, rate: number) {
  const before = processCpuSeconds(server.pid!);
  const input = JSON.stringify({ port, connections: CONNECTIONS, rate, durationSeconds: DURATION, warmupSeconds: WARMUP, target: TARGET, credential });
  const command = [process.execPath, join(__dirname, 'paced-worker.js'), input];
  if (CLIENT_CPUS) command.unshift('taskset', '-c', CLIENT_CPUS);
  const { stdout } = await promisify(execFile)(command[0], command.slice(1), { maxBuffer: 1 << 20 });
  const result = JSON.parse(stdout) as PacedLoadResult;
  const after = processCpuSeconds(server.pid!);
  return {
    label,
    offered: rate,
    requestsPerSecond: result.answered,
    p50: result.p50,
    p99: result.p99,
    errors: result.errors + Object.entries(result.statuses).reduce((n, [code, count]) => n + (code.startsWith('2') ? 0 : count), 0),
    cpuMicrosPerRequest: cpuMicrosPerRequest(before, after, result.total),
    statuses:
      Object.entries(result.statuses)
        .map(([code, count]) => `${count} × ${code}`)
        .join(', ') + (result.errors ? `, ${result.errors} errors` : ''),
  };
}

/**
 * As fast as the server answers: saturation. Also records every 2xx answer's latency (autocannon's
 * `response` event) for p50 and p99 to the hundredth of a millisecond.
 */
async function cannon(port: number, credential: { accessKey: string; secretKey: string }, duration: number, path = TARGET) {
  const latencies = new LatencyRecord();
  const options: autocannon.Options = {
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration,
    requests: [
      {
        method: 'GET',
        path,
        // A fresh signature per request, as an integrator sends them.
        setupRequest: (request) => ({
          ...request,
          headers: { ...request.headers, authorization: signRequest({ ...credential, method: 'GET', target: path }).authorization },
        }),
      },
    ],
  };
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(options, (error: unknown, done: autocannon.Result) =>
      error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(done),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.add(responseTime);
    });
  });
  return { result, latency: latencies.summary() };
}

function measurement(label: string, { result, latency }: Awaited<ReturnType<typeof cannon>>, cpuMicrosPerRequest?: number): Measurement {
  const stats = (result as unknown as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats ?? {};
  const statuses = Object.entries(stats)
    .map(([code, s]) => `${s.count} × ${code}`)
    .join(', ');
  return {
    label,
    requestsPerSecond: result.requests.average,
    p50: latency.p50,
    p99: latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    cpuMicrosPerRequest,
    statuses: statuses || 'none',
  };
}

async function main() {
  if (CLIENT_CPUS) execFileSync('taskset', ['-a', '-c', '-p', CLIENT_CPUS, String(process.pid)], { stdio: 'ignore' });
  const config = loadConfig();
  await sodiumReady();
  const keyRing = formatKeyRing([generateKey('bench')]);
  const id = randomBytes(3).toString('hex');
  const bus = new BusNames(`bench${id}`);
  // A database of its own, so the bench never migrates or loads the one `npm start` uses.
  const databaseUrl = Object.assign(new URL(config.DATABASE_URL), { pathname: `${new URL(config.DATABASE_URL).pathname}_bench_gateway` }).toString();
  await migrateAll(databaseUrl);
  const credential = await seedCredential(config.NATS_URL, bus, parseKeyRing(keyRing));
  await seedDevices(databaseUrl, credential.orgId, DEVICES);

  const gatewayPort = await freePort();
  let redisUrl = config.REDIS_URL;
  const children: ChildProcess[] = [];
  process.once('exit', () => children.forEach((c) => c.exitCode === null && c.kill('SIGTERM')));
  if (OWN_REDIS) {
    const port = await freePort();
    const redis = spawn(
      'taskset',
      ['-c', REDIS_CPUS!, 'redis-server', '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--lazyfree-lazy-expire', 'yes'],
      {
        stdio: 'ignore',
      },
    );
    children.push(redis);
    redisUrl = `redis://127.0.0.1:${port}`;
  }
  const barePort = await freePort();
  try {
    const gatewayServer = startProcess(
      'apps/gateway/src/main.js',
      {
        NODE_ENV: 'development',
        LOG_LEVEL: 'warn',
        HTTP_HOST: '127.0.0.1',
        GATEWAY_PORT: String(gatewayPort),
        DATABASE_URL: databaseUrl,
        REDIS_URL: redisUrl,
        NATS_URL: config.NATS_URL,
        BUS_PREFIX: bus.prefix,
        REDIS_KEY_PREFIX: `bench${id}:`,
        CREDENTIAL_KEYRING: keyRing,
        RATE_LIMIT_PER_MINUTE: '1000000',
      },
      { nodeArgs: GATEWAY_NODE_ARGS, cpus: SERVER_CPUS },
    );
    children.push(gatewayServer.child);
    await waitFor(() => ready(gatewayPort), 30_000, 'gateway ready').catch((error: Error) => {
      throw new Error(`${error.message}\n${gatewayServer.log()}`);
    });
    const redisNote = OWN_REDIS
      ? `Redis: a redis-server of the bench's own, pinned to CPU ${REDIS_CPUS}${REDIS_CPUS === CLIENT_CPUS ? ' with the load generator' : REDIS_CPUS === SERVER_CPUS ? ' with the servers' : ''}. `
      : `Redis: ${redisUrl}. `;

    // The bare route answers exactly what the gateway answers for this request.
    const signedGet = () => ({ headers: { authorization: signRequest({ ...credential, method: 'GET', target: TARGET }).authorization } });
    const sample = await fetch(`http://127.0.0.1:${gatewayPort}${TARGET}`, signedGet());
    const body = await sample.text();
    const bareServer = startProcess(
      'bench/gateway/bare-server.js',
      {
        BARE_PORT: String(barePort),
        BARE_BODY: body,
        BARE_STATUS: String(sample.status),
        BARE_CONTENT_TYPE: sample.headers.get('content-type') ?? 'application/json',
      },
      { cpus: SERVER_CPUS },
    );
    children.push(bareServer.child);
    await waitFor(async () => (await fetch(`http://127.0.0.1:${barePort}${TARGET}`)).status === sample.status, 10_000, 'bare server up');
    // The required work alone (floor-server.ts): the gateway's own functions on bare Fastify, same Redis, same limit.
    const floorPort = await freePort();
    const floorServer = startProcess(
      'bench/gateway/floor-server.js',
      {
        FLOOR_PORT: String(floorPort),
        FLOOR_BODY: body,
        FLOOR_CONTENT_TYPE: sample.headers.get('content-type') ?? 'application/json',
        FLOOR_ACCESS_KEY: credential.accessKey,
        FLOOR_SECRET_KEY: credential.secretKey,
        REDIS_URL: redisUrl,
        REDIS_KEY_PREFIX: `bench${id}:floor:`,
        RATE_LIMIT_PER_MINUTE: '1000000',
      },
      { cpus: SERVER_CPUS },
    );
    children.push(floorServer.child);
    await waitFor(async () => (await fetch(`http://127.0.0.1:${floorPort}${TARGET}`, signedGet())).status === 200, 10_000, 'floor server up');

    console.error(`warming up (${WARMUP} s each), then ${DURATION} s per target at ${CONNECTIONS} connections...`);
    await cannon(barePort, credential, WARMUP);
    await cannon(gatewayPort, credential, WARMUP);
    await cannon(floorPort, credential, WARMUP);
    const [gatewayProcess, bareProcess] = [gatewayServer.child, bareServer.child];
    // 1. Saturation: each target as fast as it answers.
    const bare = await measure('bare Fastify route, same JSON', barePort, TARGET, bareProcess, credential);
    // Same process, an open route: what Nest and the platform hooks cost before any security work.
    const open = await measure('gateway process, open `GET /healthz` (no pipeline)', gatewayPort, '/healthz', gatewayProcess, credential);
    const gateway = await measure(`gateway \`GET ${TARGET}\`, full pipeline`, gatewayPort, TARGET, gatewayProcess, credential);
    const floor = await measure('the required work alone on bare Fastify (floor-server.ts)', floorPort, TARGET, floorServer.child, credential);
    const ratio = gateway.requestsPerSecond / bare.requestsPerSecond;
    const cpuRatio = (m: Measurement) =>
      bare.cpuMicrosPerRequest !== undefined && m.cpuMicrosPerRequest !== undefined ? (bare.cpuMicrosPerRequest / m.cpuMicrosPerRequest).toFixed(2) : '–';
    // 2. Latency: both targets offered the same load, 0.6 of what the bare route answered.
    const curve: (Measurement & { offered: number })[] = [];
    for (const share of [...CURVE_SHARES, OFFERED_SHARE]) {
      const rate = Math.floor(bare.requestsPerSecond * share);
      curve.push(await measurePaced('bare Fastify route, same JSON', barePort, bareProcess, credential, rate));
      curve.push(await measurePaced(`gateway \`GET ${TARGET}\`, full pipeline`, gatewayPort, gatewayProcess, credential, rate));
    }
    const offered = Math.floor(bare.requestsPerSecond * OFFERED_SHARE);
    const gatewayAtRate = curve[curve.length - 1];
    const withinTarget = curve.filter((m, i) => i % 2 === 1 && m.p99 <= 5 && !m.errors && m.requestsPerSecond >= 0.99 * m.offered);
    const best = withinTarget.length ? Math.max(...withinTarget.map((m) => m.offered)) : undefined;
    const kept = gatewayAtRate.requestsPerSecond / offered;
    const latencyMet = kept >= 0.99 && gatewayAtRate.p99 <= 5 && !gatewayAtRate.errors;

    const routeNote =
      sample.status === 200
        ? `The gateway answered ${sample.status} with ${body.length} bytes: a page of the organization's ${DEVICES} devices in both list shapes.`
        : `The gateway answered **${sample.status}** (${body.length} bytes), not 200: this run did not measure the devices route.`;
    const pinning = CLIENT_CPUS
      ? `autocannon pinned to CPU ${CLIENT_CPUS} and the two servers to CPU ${SERVER_CPUS} (taskset; Postgres, Redis and NATS are not pinned)`
      : 'nothing pinned (the load generator shares the CPUs with the servers)';
    const section = [
      `Measured ${new Date().toISOString()} by \`npm run bench:gateway\` on ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ` +
        `Node ${process.version}; autocannon, ${CONNECTIONS} connections, ${DURATION} s per measurement after ${WARMUP} s of warm-up, ` +
        `one process per server, all on this machine; ${pinning}. ${redisNote}` +
        `Load average when the measurement ended: ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' / ')} (1 / 5 / 15 min); other work on the machine moves these numbers.`,
      '',
      'Every request carries a fresh SVC-HMAC signature (autocannon `setupRequest`). The gateway runs the whole pipeline: ' +
        'header parsing, credential lookup in its in-memory view, HMAC over the raw target and body, scope and allow-list, ' +
        `and the Redis sliding-window script (EVALSHA) with \`RATE_LIMIT_PER_MINUTE=1000000\`; \`LOG_LEVEL=warn\`. ${routeNote}`,
      '',
      '**Throughput at saturation** (each target as fast as it answers):',
      '',
      table([bare, open, gateway, floor]),
      '',
      `At ${CONNECTIONS} connections the gateway answered **${ratio.toFixed(2)}** of the bare route's throughput (target ≥ 0.60: ${ratio >= 0.6 ? 'met' : 'not met'}) ` +
        `with p99 **${gateway.p99} ms** (target ≤ 5 ms: ${gateway.p99 <= 5 ? 'met' : 'not met'}); p99 from every answer's own time, to the hundredth. ` +
        `In server CPU per request, bare / gateway: ${cpuRatio(gateway)}; bare / floor: ${cpuRatio(floor)} ` +
        '(the floor is the required work without Nest, metrics, logging or request ids: see "Where the time goes"). ' +
        `The bare route itself, which does no work, measured p99 ${bare.p99} ms${bare.p99 > 5 ? ' (over 5 ms itself)' : ''}. With ${CONNECTIONS} connections ` +
        `always busy, the mean latency is ${CONNECTIONS} / throughput (Little's law): ${round((CONNECTIONS / bare.requestsPerSecond) * 1000, 2)} ms for the bare route, ` +
        `${round((CONNECTIONS / (OFFERED_SHARE * bare.requestsPerSecond)) * 1000, 2)} ms for any target at ${OFFERED_SHARE} of its throughput.`,
      '',
      `**Latency at a fixed offered load** (${[...CURVE_SHARES, OFFERED_SHARE].map((x) => `${Math.round(x * 100)} %`).join(', ')} of the bare route's ` +
        `saturated throughput, the same load to each target over the same ${CONNECTIONS} connections, from an open-loop generator in a process of its own${CLIENT_CPUS ? ` on CPU ${CLIENT_CPUS}` : ''}, counted after ${WARMUP} s of the same load):`,
      '',
      latencyTable(curve),
      '',
      `At ${offered} req/s (0.6 of bare) the gateway kept ${(kept * 100).toFixed(1)} % of the offered load with p99 ${gatewayAtRate.p99} ms ` +
        `(target: at least 0.6 of the bare throughput with p99 ≤ 5 ms: ${latencyMet ? 'met' : 'not met'}). ` +
        (best === undefined
          ? 'No offered load measured here kept the gateway within p99 ≤ 5 ms.'
          : `The highest offered load measured here with the gateway at p99 ≤ 5 ms: ${best} req/s (${(best / bare.requestsPerSecond).toFixed(2)} of bare).`),
      '',
    ].join('\n');
    writeGatewayResults(join(ROOT, 'docs', 'benchmarks.md'), section);
    console.log(section);
  } finally {
    // Waits for them, so a profile the gateway writes at exit (BENCH_GATEWAY_NODE_ARGS) is complete.
    await Promise.all(children.map(stopProcess));
    await removeStreams(config.NATS_URL, bus);
  }
}

main().catch((error: unknown) => {
  console.error(`bench:gateway failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
