import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import PgBoss from 'pg-boss';
import { Client } from 'pg';
import { loadConfig } from '@meter/config';
import { quoteIdentifier } from '@meter/persistence';
import { percentile, round } from '../shared/processes';

/**
 * `npm run bench:webhooks:pg-boss`: could pg-boss run the webhook
 * deliveries? The fairness case of bench:webhooks, with pg-boss as the
 * queue and the HTTP attempt simulated: a healthy organization's endpoint
 * answers at once, another organization's endpoints hold every attempt for
 * BENCH_PGBOSS_HANG_MS (the 15 s limit); each organization sends
 * BENCH_PGBOSS_RATE deliveries a second for BENCH_PGBOSS_SECONDS. 16
 * workers (WEBHOOK_DELIVERY_CONCURRENCY) poll every 0.5 s (pg-boss's
 * least) and are woken at each send, as the fan-out would in its own
 * process. Measured: the healthy deliveries' time from the send's commit
 * to the attempt's start. pg-boss v10 limits concurrency per key only to
 * one (`singleton` policy); it has no share per organization.
 */
const RATE = Number(process.env.BENCH_PGBOSS_RATE ?? 20);
const SECONDS = Number(process.env.BENCH_PGBOSS_SECONDS ?? 20);
const HANG_MS = Number(process.env.BENCH_PGBOSS_HANG_MS ?? 15_000);
const WORKERS = 16;

interface Variant {
  name: string;
  policy: 'standard' | 'singleton';
  /** endpoints of the hanging organization (0: no hanging organization) */
  hungEndpoints: number;
}

const VARIANTS: Variant[] = [
  { name: 'one queue, no hanging endpoint (the latency pg-boss adds)', policy: 'standard', hungEndpoints: 0 },
  { name: 'one queue, one hanging endpoint', policy: 'standard', hungEndpoints: 1 },
  { name: 'singleton per endpoint (singletonKey), one hanging endpoint', policy: 'singleton', hungEndpoints: 1 },
  { name: 'singleton per endpoint, 20 hanging endpoints of one organization', policy: 'singleton', hungEndpoints: 20 },
];

interface Delivery {
  org: 'healthy' | 'hung';
  endpoint: string;
  sentAt: number;
}

const now = () => performance.timeOrigin + performance.now();

async function runVariant(databaseUrl: string, variant: Variant, index: number) {
  const schema = `bench_boss_${index}`;
  const queue = 'deliveries';
  const boss = new PgBoss({ connectionString: databaseUrl, schema, max: WORKERS + 4, supervise: false, schedule: false });
  boss.on('error', () => undefined);
  await boss.start();
  await boss.createQueue(queue, { name: queue, policy: variant.policy });
  const latencies: number[] = [];
  let healthySent = 0;
  let hungStarted = 0;
  const workerIds: string[] = [];
  for (let i = 0; i < WORKERS; i++) {
    workerIds.push(
      await boss.work<Delivery>(queue, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => {
        if (job.data.org === 'healthy') latencies.push(now() - job.data.sentAt);
        else {
          hungStarted += 1;
          await sleep(HANG_MS);
        }
      }),
    );
  }
  const send = async (data: Omit<Delivery, 'sentAt'>) => {
    const sentAt = now();
    await boss.send(queue, { ...data, sentAt }, { singletonKey: data.endpoint, expireInSeconds: 60 });
    for (const id of workerIds) boss.notifyWorker(id);
  };
  const until = Date.now() + SECONDS * 1000;
  let tick = 0;
  while (Date.now() < until) {
    const started = Date.now();
    const sends: Promise<void>[] = [];
    for (let i = 0; i < RATE; i++) {
      sends.push(send({ org: 'healthy', endpoint: 'healthy-endpoint' }));
      healthySent += 1;
      if (variant.hungEndpoints > 0) sends.push(send({ org: 'hung', endpoint: `hung-endpoint-${(tick * RATE + i) % variant.hungEndpoints}` }));
    }
    await Promise.all(sends);
    tick += 1;
    await sleep(Math.max(0, 1000 - (Date.now() - started)));
  }
  // What is still waiting after the sending stopped waits past the end: counted as not started within the run.
  await sleep(2000);
  const started = latencies.length;
  await boss.stop({ graceful: false, wait: false, close: true }).catch(() => undefined);
  // A delivery never started counts as slower than any that did.
  const sorted = Float64Array.from([...latencies, ...Array<number>(healthySent - started).fill(Infinity)]).sort();
  return { variant, healthySent, started, hungStarted, sorted };
}

async function main() {
  const base = loadConfig();
  const databaseName = `meter_bench_boss_${Date.now().toString(36)}`;
  // The server's maintenance database: the configured one need not exist.
  const admin = new Client({ connectionString: Object.assign(new URL(base.DATABASE_URL), { pathname: '/postgres' }).toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${quoteIdentifier(databaseName)}`);
  const databaseUrl = Object.assign(new URL(base.DATABASE_URL), { pathname: `/${databaseName}` }).toString();
  const rows: string[] = [];
  try {
    for (const [i, variant] of VARIANTS.entries()) {
      const r = await runVariant(databaseUrl, variant, i);
      const ms = (v: number) => (Number.isFinite(v) ? `${round(v, 0)}` : 'not started');
      const [p50, p99, max] = [percentile(r.sorted, 50), percentile(r.sorted, 99), r.sorted[r.sorted.length - 1]];
      rows.push(`| ${variant.name} | ${r.started} of ${r.healthySent} | ${ms(p50)} / ${ms(p99)} / ${ms(max)} ms | ${r.hungStarted} |`);
    }
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(databaseName)} WITH (FORCE)`);
    await admin.end();
  }
  console.log(
    `pg-boss as the webhook delivery queue: ${RATE} deliveries/s per organization for ${SECONDS} s, ${WORKERS} workers, hanging attempts ${HANG_MS} ms; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}\n`,
  );
  console.log('| queue | healthy deliveries started | send to start: p50 / p99 / max (all sent) | hanging attempts started |');
  console.log('|---|---|---|---|');
  for (const row of rows) console.log(row);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
