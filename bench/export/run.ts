import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { NatsConnection } from '@nats-io/nats-core';
import { Client } from 'pg';
import S3rver from 's3rver';
import { z } from 'zod';
import { migrateAll } from '@meter/cli';
import type { ReadingRow } from '@meter/ingest';
import {
  BusNames,
  EXPORT_OPERATIONS,
  exportIntegrationReply,
  exportRunQueuedReply,
  exportRunReply,
  integrationsSubject,
  type ExportRun,
  vaultSubject,
  vaultUpsertReply,
} from '@meter/contracts';
import { connectNats, requestRpc } from '@meter/messaging';
import { quoteIdentifier } from '@meter/persistence';
import { freePort, ready, round, startProcess, stopProcess, waitFor } from '../shared/processes';
import { seedReadModel, type SeedBatch } from '../shared/read-model-seed';

/**
 * bench:export — one local day of a fleet of 10,000 and of 100,000 devices
 * exported to the S3 emulator (s3rver) by the built integrations process:
 * rows per second, wall time (the run's start to its end) and the
 * exporter's peak RSS (VmHWM of its process, a fresh one per size). Writes
 * the results into docs/benchmarks.md.
 */

const ROOT = join(__dirname, '..', '..', '..');
const DAY = '2026-11-01';
const SIZES = (process.env.BENCH_EXPORT_SIZES ?? '10000,100000').split(',').map(Number);
// The server's maintenance database: the benchmark creates (and drops) a database of its own there.
const DATABASE_SERVER = process.env.BENCH_DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
/** The integrations process's NODE_OPTIONS in deploy/ and compose. */
const DEPLOYED_NODE_ARGS = '--max-old-space-size=192';
const EXPORTER_NODE_ARGS = (process.env.BENCH_EXPORTER_NODE_ARGS ?? DEPLOYED_NODE_ARGS).split(' ').filter(Boolean);
const RESULTS_START = '<!-- bench:export results: written by npm run bench:export -->';
const RESULTS_END = '<!-- end of bench:export results -->';

interface Result {
  devices: number;
  rows: number;
  bytes: number;
  wallSeconds: number;
  rowsPerSecond: number;
  peakRssMb: number;
}

/** Devices written per transaction while seeding (each holds its device's lock until commit). */
const SEED_DEVICES_PER_BATCH = 1000;

/** N devices of one organization, each with a reading every 6 hours around the day (6 readings), stored through ingest's writer. */
async function seed(databaseUrl: string, db: Client, orgId: string, devices: number) {
  const FIRST = Date.parse('2026-10-31T18:00:00Z');
  function* batches(): Generator<SeedBatch> {
    for (let from = 1; from <= devices; from += SEED_DEVICES_PER_BATCH) {
      const readings: ReadingRow[] = [];
      for (let d = from; d < Math.min(from + SEED_DEVICES_PER_BATCH, devices + 1); d++) {
        for (let k = 0; k <= 5; k++) {
          readings.push({ orgId, deviceId: d, channel: 1, readAt: FIRST + k * 6 * 3_600_000, value: (d % 100) + k * 0.25 + (d % 7) * 0.01 * k, seq: d });
        }
      }
      yield { readings };
    }
  }
  await seedReadModel(databaseUrl, batches());
  await db.query('ANALYZE ingest.devices');
  await db.query('ANALYZE ingest.reading_days');
}

/** The process's peak resident set (VmHWM), in MB. */
function peakRssMb(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

/** One request to a service over NATS; its result, or a failure naming its error. */
async function rpc<R>(
  nc: NatsConnection,
  subject: string,
  payload: unknown,
  schema: z.ZodType<{ ok: true; result: R } | { ok: false; error: unknown }>,
): Promise<R> {
  const reply = await requestRpc(nc, subject, payload, schema, 30_000);
  if (!reply.ok) throw new Error(`${subject}: ${JSON.stringify(reply.error)}`);
  return reply.result;
}

async function main() {
  const id = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const databaseName = `meter_bench_export_${id}`;
  const admin = new Client({ connectionString: DATABASE_SERVER });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${quoteIdentifier(databaseName)}`);
  const databaseUrl = Object.assign(new URL(DATABASE_SERVER), { pathname: `/${databaseName}` }).toString();
  const bus = new BusNames(`bx${id}`);
  const directory = mkdtempSync(join(tmpdir(), 'bench-s3-'));
  const s3Port = await freePort();
  const s3 = new S3rver({ port: s3Port, address: '127.0.0.1', directory, silent: true });
  await s3.run();
  const s3Client = new S3Client({
    endpoint: `http://127.0.0.1:${s3Port}`,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  await s3Client.send(new CreateBucketCommand({ Bucket: 'bench' }));
  const env = {
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    HTTP_HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    NATS_URL,
    BUS_PREFIX: bus.prefix,
    DATA_DIR: join(directory, 'data'),
    VAULT_ROOT_KEYRING: `k1:${randomBytes(32).toString('base64')}`,
    EXPORT_POLL_SECONDS: '0.5',
  };
  const db = new Client({ connectionString: databaseUrl });
  const started: { child: import('node:child_process').ChildProcess }[] = [];
  let nc: NatsConnection | undefined;
  const results: Result[] = [];
  try {
    await migrateAll(databaseUrl);
    await db.connect();
    const vaultPort = await freePort();
    const vault = startProcess('apps/vault/src/main.js', { ...env, VAULT_PORT: String(vaultPort) });
    started.push(vault);
    await waitFor(() => ready(vaultPort), 30_000, 'vault ready');
    nc = await connectNats(NATS_URL, 'bench-export');
    for (const devices of SIZES) {
      const orgId = `bench_${devices}`;
      process.stderr.write(`seeding ${devices} devices...\n`);
      await seed(databaseUrl, db, orgId, devices);
      await rpc(
        nc,
        vaultSubject(bus, 'upsert'),
        {
          org_id: orgId,
          actor: 'bench',
          entry: {
            namespace: 'batch',
            type: 's3_identity',
            data: { access_key: 'S3RVER', secret_key: 'S3RVER', end_point: `http://127.0.0.1:${s3Port}`, region: 'us-east-1' },
          },
        },
        vaultUpsertReply,
      );
      // A fresh exporter per size, so its peak RSS is this size's.
      const port = await freePort();
      const integrations = startProcess(
        'apps/integrations/src/main.js',
        { ...env, INTEGRATIONS_PORT: String(port) },
        // As deployed (deploy/base/apps/integrations.yaml, docker-compose.yml); BENCH_EXPORTER_NODE_ARGS='' runs V8's defaults.
        { nodeArgs: EXPORTER_NODE_ARGS },
      );
      started.push(integrations);
      await waitFor(() => ready(port), 30_000, 'integrations ready');
      const caller = { org_id: orgId, actor: 'bench' };
      const integration = await rpc(
        nc,
        integrationsSubject(bus, EXPORT_OPERATIONS.create),
        { ...caller, body: { type: 'batch_export', namespace: 'batch', storage_type: 's3_identity', destination: { bucket: 'bench', prefix: `${devices}/` } } },
        exportIntegrationReply,
      );
      const baseline = peakRssMb(integrations.child.pid!);
      process.stderr.write(`exporting ${DAY} of ${devices} devices (exporter at ${round(baseline)} MB)...\n`);
      const queued = await rpc(
        nc,
        integrationsSubject(bus, EXPORT_OPERATIONS.queueRun),
        { ...caller, integration_id: integration.id, body: { from: DAY, to: DAY } },
        exportRunQueuedReply,
      );
      let finished: ExportRun | undefined;
      await waitFor(
        async () => {
          const run = await rpc(
            nc!,
            integrationsSubject(bus, EXPORT_OPERATIONS.getRun),
            { ...caller, integration_id: integration.id, run_id: queued.id },
            exportRunReply,
          );
          finished = run;
          return run.status === 'succeeded' || run.status === 'failed';
        },
        600_000,
        `run of ${devices} devices finished`,
        250,
      );
      if (!finished) throw new Error('no run');
      if (finished.status !== 'succeeded') throw new Error(`run failed: ${JSON.stringify(finished.error)}\n${integrations.log()}`);
      const peak = peakRssMb(integrations.child.pid!);
      const file = finished.files[0];
      const object = await s3Client.send(new GetObjectCommand({ Bucket: 'bench', Key: file.key }));
      if (Number(object.ContentLength) !== file.bytes) throw new Error('the object in the emulator is not the size the run recorded');
      const wallSeconds = (Date.parse(finished.finished_at!) - Date.parse(finished.started_at!)) / 1000;
      results.push({ devices, rows: file.rows, bytes: file.bytes, wallSeconds, rowsPerSecond: file.rows / wallSeconds, peakRssMb: peak });
      process.stderr.write(`${devices} devices: ${file.rows} rows in ${round(wallSeconds, 2)} s, peak RSS ${round(peak)} MB\n`);
      await stopProcess(integrations.child);
    }
  } finally {
    for (const p of started) await stopProcess(p.child).catch(() => undefined);
    await nc?.close();
    await db.end().catch(() => undefined);
    s3Client.destroy();
    await s3.close();
    rmSync(directory, { recursive: true, force: true });
    await admin.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(databaseName)} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }
  report(results);
}

function report(results: Result[]) {
  const small = results.find((r) => r.devices === 10_000);
  const large = results.find((r) => r.devices === 100_000);
  const lines = [
    RESULTS_START,
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on this machine (${cpus().length} cores, shared; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(
        ' ',
      )} at the end), one day (${DAY}, UTC, CSV) per size, a fresh exporter process per size (node ${EXPORTER_NODE_ARGS.join(' ') || 'with V8 defaults'}):`,
    '',
    '| devices | rows | data file | wall time | rows/s | exporter peak RSS |',
    '|---:|---:|---:|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| ${r.devices.toLocaleString('en')} | ${r.rows.toLocaleString('en')} | ${round(r.bytes / 1024 / 1024, 1)} MB | ${round(r.wallSeconds, 2)} s | ${Math.round(r.rowsPerSecond).toLocaleString('en')} | ${round(r.peakRssMb)} MB |`,
    ),
    '',
    ...(small && large
      ? [
          `Targets: 10,000 devices in under 30 s: **${small.wallSeconds < 30 ? 'met' : 'missed'}** (${round(small.wallSeconds, 2)} s); ` +
            `peak RSS at 100,000 below 1.5x that at 10,000: **${large.peakRssMb < 1.5 * small.peakRssMb ? 'met' : 'missed'}** (${round(large.peakRssMb / small.peakRssMb, 2)}x).`,
        ]
      : []),
    '',
    RESULTS_END,
  ];
  const path = join(ROOT, 'docs', 'benchmarks.md');
  const text = readFileSync(path, 'utf8');
  const start = text.indexOf(RESULTS_START);
  const end = text.indexOf(RESULTS_END);
  const section = lines.join('\n');
  if (start === -1 || end === -1) throw new Error(`docs/benchmarks.md lacks the markers ${RESULTS_START} ... ${RESULTS_END}`);
  writeFileSync(path, text.slice(0, start) + section + text.slice(end + RESULTS_END.length));
  process.stdout.write(`${section}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:export failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
