import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { jetstream } from '@nats-io/jetstream';
import { Client } from 'pg';
import { loadConfig } from '@meter/config';
import { BusNames, integrationsSubject, WEBHOOK_OPERATIONS, webhookReplies } from '@meter/contracts';
import { connectNats, requestRpc } from '@meter/messaging';
import { quoteIdentifier } from '@meter/persistence';
import { migrateAll } from '@meter/cli';
import { freePort, percentile, ready, round, startProcess, stopProcess, waitFor } from '../shared/processes';

/**
 * `npm run bench:webhooks`: how long an alert takes from the reading that
 * raises it to a local webhook receiver. Ingest and integrations run from
 * dist/ on a database and bus prefix of their own; BENCH_WEBHOOK_DEVICES
 * meters with a burst threshold get one reading each per BENCH_WEBHOOK_PERIOD_MS,
 * alternately above and below it, so every reading opens or closes a BURST
 * episode. Per event: from the reading's publish, and from its transaction
 * (the outbox row's time, taken inside it, just before the commit), to the
 * receiver's answer. With the fairness case (on unless
 * BENCH_WEBHOOK_FAIRNESS=0) a second organization's meters raise as many
 * events for an endpoint that accepts and never answers, so its attempts
 * time out (15 s) and retry all along; only the healthy organization's
 * latency is measured. Prints a Markdown report.
 */
const DEVICES = Number(process.env.BENCH_WEBHOOK_DEVICES ?? 20);
const PERIOD_MS = Number(process.env.BENCH_WEBHOOK_PERIOD_MS ?? 1000);
const SECONDS = Number(process.env.BENCH_WEBHOOK_SECONDS ?? 30);
const ORG = 'bench_webhooks';
/** The fairness case: another organization whose endpoint accepts every delivery and never answers, raising as many events. */
const HUNG_ORG = 'bench_webhooks_hung';
const FAIRNESS = process.env.BENCH_WEBHOOK_FAIRNESS !== '0';
const H = 3_600_000;

async function main() {
  const base = loadConfig();
  const id = Date.now().toString(36);
  const databaseName = `meter_bench_wh_${id}`;
  const databaseUrl = Object.assign(new URL(base.DATABASE_URL), { pathname: `/${databaseName}` }).toString();
  await migrateAll(databaseUrl);
  const bus = new BusNames(`benchwh${id}`);
  const [ingestPort, integrationsPort] = [await freePort(), await freePort()];
  const env = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    HTTP_HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    NATS_URL: base.NATS_URL,
    REDIS_URL: base.REDIS_URL,
    BUS_PREFIX: bus.prefix,
    DATA_DIR: `.data/bench-${id}`,
    INGEST_PORT: String(ingestPort),
    INTEGRATIONS_PORT: String(integrationsPort),
  };
  const ingest = startProcess('apps/ingest/src/main.js', env);
  const integrations = startProcess('apps/integrations/src/main.js', env);
  const nc = await connectNats(base.NATS_URL, 'bench-webhooks');
  const db = new Client({ connectionString: databaseUrl });
  const received = new Map<string, number>();
  // Accepts, reads, never answers: each attempt holds its slot until the 15 s limit.
  let hungAttempts = 0;
  const hung = createServer((req) => {
    hungAttempts += 1;
    req.on('data', () => undefined);
  });
  const receiver = createServer((req, res) => {
    req.on('data', () => undefined);
    req.on('end', () => {
      const at = performance.timeOrigin + performance.now();
      res.writeHead(204).end();
      received.set(String(req.headers['webhook-id']), at);
    });
  });
  try {
    await waitFor(async () => (await ready(ingestPort)) && (await ready(integrationsPort)), 60_000, 'ingest and integrations ready').catch((e: Error) => {
      throw new Error(`${e.message}\n${ingest.log()}\n${integrations.log()}`);
    });
    await db.connect();
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const hungUrl = `http://127.0.0.1:${(hung.address() as AddressInfo).port}/hook`;
    const orgs = FAIRNESS ? [ORG, HUNG_ORG] : [ORG];
    for (const [org, target] of [
      [ORG, url],
      [HUNG_ORG, hungUrl],
    ].slice(0, orgs.length)) {
      const created = await requestRpc(
        nc,
        integrationsSubject(bus, WEBHOOK_OPERATIONS.create),
        { org_id: org, actor: 'bench', endpoint: { url: target, events: ['alert.raised', 'alert.cleared'] } },
        webhookReplies.create,
        10_000,
      );
      if (!created.ok) throw new Error(`creating the endpoint of ${org} failed: ${created.error.detail}`);
    }

    const js = jetstream(nc);
    const start = Math.floor(Date.now() / H) * H - 2 * H;
    for (const org of orgs) {
      for (let d = 1; d <= DEVICES; d++) {
        await js.publish(bus.subject(`meter.devices.${org}.${d}`), JSON.stringify({ name: `Meter ${d}`, burst_threshold_per_hour: 1 }));
        await js.publish(bus.subject(`meter.readings.${org}.${d}`), JSON.stringify({ read_at: new Date(start).toISOString(), value: 0 }));
      }
    }
    // Readings 30 minutes apart (as far as the rule goes) at fake times, one per meter and period: 2 units (BURST) then 0.1 (clears).
    const published = new Map<string, number>();
    const steps = Math.floor((SECONDS * 1000) / PERIOD_MS);
    const values = new Map<number, number>();
    const t0 = performance.now();
    for (let step = 1; step <= steps; step++) {
      const due = t0 + step * PERIOD_MS;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      for (let d = 1; d <= DEVICES; d++) {
        const value = (values.get(d) ?? 0) + (step % 2 === 1 ? 2 : 0.1);
        values.set(d, value);
        const readAt = new Date(start + step * 30 * 60_000).toISOString();
        published.set(`${d} ${readAt}`, performance.timeOrigin + performance.now());
        for (const org of orgs) void js.publish(bus.subject(`meter.readings.${org}.${d}`), JSON.stringify({ read_at: readAt, value: value.toFixed(3) }));
      }
    }
    const expected = steps * DEVICES;
    await waitFor(async () => received.size >= expected, 120_000, `${expected} webhooks received`);

    // Each event's reading and transaction time, from the outbox.
    const rows: { event_id: string; device: number; at: string; created: number }[] = (
      await db.query(
        `SELECT event_id, (payload->'data'->>'device_id')::int AS device,
           CASE WHEN payload->>'type' = 'alert.raised' THEN payload->'data'->>'raised_at' ELSE payload->'data'->>'cleared_at' END AS at,
           (extract(epoch from created_at) * 1000)::float8 AS created
         FROM ingest.alert_outbox WHERE org_id = $1`,
        [ORG],
      )
    ).rows;
    const fromPublish: number[] = [];
    const fromCommit: number[] = [];
    for (const row of rows) {
      const got = received.get(row.event_id);
      const sent = published.get(`${row.device} ${row.at}`);
      if (got === undefined || sent === undefined) continue;
      fromPublish.push(got - sent);
      fromCommit.push(got - row.created);
    }
    fromPublish.sort((a, b) => a - b);
    fromCommit.sort((a, b) => a - b);
    const line = (list: number[]) =>
      `${round(percentile(list, 50))} / ${round(percentile(list, 95))} / ${round(percentile(list, 99))} / ${round(list[list.length - 1])} ms`;
    const report = [
      `Run ${new Date().toISOString()}, ${cpus().length} CPUs, load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} at the end.`,
      '',
      '| measure | value |',
      '|---|---|',
      `| events (BURST opened or closed by every reading), ${DEVICES} meters, one reading each per ${PERIOD_MS} ms for ${SECONDS} s | ${fromCommit.length} of ${expected} |`,
      `| reading's transaction (outbox row) to the receiver's answer: p50 / p95 / p99 / max | ${line(fromCommit)} |`,
      `| reading published to the receiver's answer: p50 / p95 / p99 / max | ${line(fromPublish)} |`,
      ...(FAIRNESS
        ? [
            `| meanwhile: another organization's ${expected} events to an endpoint that never answers; attempts it received (each held 15 s) | ${hungAttempts} |`,
          ]
        : []),
    ];
    console.log(report.join('\n'));
  } finally {
    receiver.closeAllConnections();
    receiver.close();
    hung.closeAllConnections();
    hung.close();
    await stopProcess(integrations.child);
    await stopProcess(ingest.child);
    await db.end().catch(() => undefined);
    const jsm = await (await import('@nats-io/jetstream')).jetstreamManager(nc);
    for await (const name of jsm.streams.names()) if (name.startsWith(bus.stream(''))) await jsm.streams.delete(name);
    await nc.close();
    const admin = new Client({ connectionString: base.DATABASE_URL.replace(/\/[^/]*$/, '/postgres') });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(databaseName)} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
