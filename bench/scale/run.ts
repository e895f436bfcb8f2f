import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { migrateAll } from '@meter/cli';
import { createDataSource, PreparedQueries, quoteIdentifier } from '@meter/persistence';
import { streamExportDay } from '@meter/read-model';
import { percentile, round } from '../shared/processes';
import { seedReadModel } from '../shared/read-model-seed';
import { fleetCorrections, fleetReadings, HOUR } from './fleet-readings';
import { rawInsertRate } from './raw-baseline';
import { routeQueries } from './route-queries';
import { describeStore, storageFigures, type StorageFigures } from './storage-figures';

/**
 * bench:scale — one organization with a large fleet (BENCH_SCALE_METERS,
 * 10,000, x BENCH_SCALE_DAYS, 60, of hourly readings, stored through
 * ingest's batch writer) and a 3-meter organization in the same database:
 * the writer's readings/s over the load against a raw insert of the same
 * readings, bytes per reading of each reading store after the load and
 * after corrections to 1 % of the readings, p50/p99 of each gateway route's queries for the small organization
 * on that database and on one holding only the small organization, the
 * large organization's 100-device dashboard, and one export day of the
 * whole fleet (time, peak RSS), each against issue 25's target. Writes
 * docs/benchmarks.md. A benchmark, not a test: it never fails on the numbers.
 */
const ROOT = join(__dirname, '..', '..', '..');
const DATABASE_SERVER = process.env.BENCH_DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const METERS = Number(process.env.BENCH_SCALE_METERS ?? 10_000);
const DAYS = Number(process.env.BENCH_SCALE_DAYS ?? 60);
const ITERATIONS = Number(process.env.BENCH_SCALE_ITERATIONS ?? 200);
/** BENCH_SCALE_KEEP=1 keeps both databases (their names are printed) for EXPLAIN by hand. */
const KEEP = process.env.BENCH_SCALE_KEEP === '1';
/** BENCH_SCALE_DATABASES=<loaded>,<empty>: measure databases a kept run loaded, skipping the load. */
const REUSE = process.env.BENCH_SCALE_DATABASES?.split(',');
const START = Date.UTC(2026, 8, 15);
const NOW = START + DAYS * 24 * HOUR - 12 * HOUR;
const BIG = 'org_fleet';
const SMALL = 'org_small';
const RESULTS_START = '<!-- bench:scale results: written by npm run bench:scale -->';
const RESULTS_END = '<!-- end of bench:scale results -->';
/** Days of the fleet the raw-insert baseline writes (the rate, not the volume, is compared). */
const RAW_DAYS = Math.min(DAYS, 5);

interface Load {
  readings: number;
  seconds: number;
  storage: StorageFigures;
  /** readings/s of the raw insert of the fleet's first RAW_DAYS days */
  rawRate: number;
  corrections: { readings: number; seconds: number; storage: StorageFigures } | null;
}

async function createDatabase(admin: Client, name: string): Promise<string> {
  await admin.query(`CREATE DATABASE ${quoteIdentifier(name)}`);
  const url = Object.assign(new URL(DATABASE_SERVER), { pathname: `/${name}` }).toString();
  await migrateAll(url);
  return url;
}

async function load(url: string, withFleet: boolean): Promise<Load> {
  const rawRate = withFleet ? await rawInsertRate(url, fleetReadings(BIG, METERS, RAW_DAYS, START)) : NaN;
  const started = performance.now();
  if (withFleet) await seedReadModel(url, fleetReadings(BIG, METERS, DAYS, START));
  const seconds = (performance.now() - started) / 1000;
  await seedReadModel(url, fleetReadings(SMALL, 3, DAYS, START));
  const storage = await analyzed(url);
  return { readings: withFleet ? METERS * DAYS * 24 : 0, seconds, storage, rawRate, corrections: withFleet ? await correct(url) : null };
}

/** Corrections to 1 % of the fleet's readings, through the batch writer; then the stores' sizes again. */
async function correct(url: string): Promise<NonNullable<Load['corrections']>> {
  let readings = 0;
  const counted = function* () {
    for (const batch of fleetCorrections(BIG, METERS, DAYS, START)) {
      readings += batch.readings?.length ?? 0;
      yield batch;
    }
  };
  const started = performance.now();
  await seedReadModel(url, counted());
  return { readings, seconds: (performance.now() - started) / 1000, storage: await analyzed(url) };
}

async function analyzed(url: string): Promise<StorageFigures> {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    await db.query('VACUUM ANALYZE');
    return await storageFigures(db);
  } finally {
    await db.end();
  }
}

type Timings = Map<string, { p50: number; p99: number }>;

function readModelOn(url: string) {
  return createDataSource({
    schema: 'ingest',
    url,
    poolSize: 8,
    applicationName: 'bench-scale',
    connectionOptions: '-c plan_cache_mode=force_generic_plan',
  }).initialize();
}

/**
 * p50/p99 in ms of each route's queries on each database, sequential calls after a warm-up. The
 * databases take turns call by call, so whatever else runs on the machine weighs on both alike.
 */
async function timeRoutes(urls: string[], orgId: string, deviceIds: number[], only?: string): Promise<Timings[]> {
  const sources = await Promise.all(urls.map(readModelOn));
  const results = urls.map((): Timings => new Map());
  try {
    const routes = sources.map((ds) => routeQueries(PreparedQueries.of(ds), orgId, deviceIds, NOW));
    for (const route of Object.keys(routes[0])) {
      if (only && route !== only) continue;
      const times = urls.map(() => new Float64Array(ITERATIONS));
      for (let i = -10; i < ITERATIONS; i++) {
        for (let d = 0; d < urls.length; d++) {
          const t = performance.now();
          await routes[d][route]();
          if (i >= 0) times[d][i] = performance.now() - t;
        }
      }
      times.forEach((sorted, d) => {
        sorted.sort();
        results[d].set(route, { p50: round(percentile(sorted, 50), 2), p99: round(percentile(sorted, 99), 2) });
      });
    }
  } finally {
    await Promise.all(sources.map((ds) => ds.destroy()));
  }
  return results;
}

/** One UTC day of the whole large fleet through the exporter's query: seconds, channel-days and the peak RSS growth. */
async function exportDay(url: string): Promise<{ seconds: number; channels: number; peakRssMb: number }> {
  const db = new Client({ connectionString: url });
  await db.connect();
  const day = Math.floor(NOW / (24 * HOUR)) * 24 * HOUR - 24 * HOUR;
  global.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  let channels = 0;
  const started = performance.now();
  try {
    await db.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    for await (const batch of streamExportDay(db, BIG, day, day + 24 * HOUR)) {
      channels += batch.length;
      peak = Math.max(peak, process.memoryUsage().rss);
    }
    await db.query('COMMIT');
  } finally {
    await db.end();
  }
  return { seconds: round((performance.now() - started) / 1000, 2), channels, peakRssMb: round((peak - base) / 2 ** 20) };
}

/** One line per target of issue 25: the figure and whether it is met. */
function targets(loaded: Load, small: Timings, smallEmpty: Timings, fleet: Timings): string[] {
  const s = loaded.storage;
  const days = describeStore(s.days, s.changeLogBytes, s.readings).total;
  const corrected =
    loaded.corrections && describeStore(loaded.corrections.storage.days, loaded.corrections.storage.changeLogBytes, loaded.corrections.storage.readings).total;
  const ratios = [...small].map(([route, t]) => ({ route, ratio: round(t.p50 / smallEmpty.get(route)!.p50, 2) }));
  const worst = ratios.reduce((a, b) => (b.ratio > a.ratio ? b : a));
  const p99 = fleet.get('dashboard')!.p99;
  const met = (ok: boolean) => (ok ? '**met**' : '**missed**');
  return [
    `- reading store, after the load: ${days} B/reading (target at most 24): ${met(days <= 24)}`,
    ...(corrected === null ? [] : [`- reading store, after the corrections: ${corrected} B/reading (target at most 24): ${met(corrected <= 24)}`]),
    `- small organization, loaded within 1.5x of alone (p50) on every route: worst ${worst.ratio}x (${worst.route}): ${met(worst.ratio <= 1.5)}`,
    `- the large organization's 100-device dashboard p99 under 50 ms: ${p99} ms: ${met(p99 < 50)}`,
    ...(Number.isNaN(loaded.seconds) || Number.isNaN(loaded.rawRate)
      ? []
      : [
          `- batch writer against the raw insert of the same readings: ratio ${round(loaded.readings / loaded.seconds / loaded.rawRate, 2)} (reported; bench:ingest holds the ingest ratio)`,
        ]),
  ];
}

function report(loaded: Load, empty: StorageFigures, small: Timings, smallEmpty: Timings, fleet: Timings, exported: Awaited<ReturnType<typeof exportDay>>) {
  const s = loaded.storage;
  const mib = (f: StorageFigures) => round((f.days.heapBytes + f.days.indexBytes) / 2 ** 20, 1);
  const c = loaded.corrections;
  const lines = [
    RESULTS_START,
    '',
    `Run ${new Date().toISOString().slice(0, 16)}Z on ${cpus().length} CPUs (load average ${loadavg()[0].toFixed(1)}), PostgreSQL in the same machine; ` +
      `${METERS.toLocaleString('en')} meters x ${DAYS} days hourly (${loaded.readings.toLocaleString('en')} readings) in one organization, 3 meters in another; ${ITERATIONS} calls per route.`,
    '',
    ...(Number.isNaN(loaded.seconds)
      ? []
      : [
          `- Load through ingest's batch writer (one connection, 100 meters x 1 day a transaction): ${Math.round(loaded.readings / loaded.seconds).toLocaleString('en')} readings/s; ` +
            `the raw insert of the same readings (its first ${RAW_DAYS} days, the same transactions): ${Math.round(loaded.rawRate).toLocaleString('en')} readings/s.`,
        ]),
    `- Reading store (\`ingest.reading_days\`) after the load (VACUUM ANALYZE): ${describeStore(s.days, s.changeLogBytes, s.readings).text} ` +
      `(${s.readings.toLocaleString('en')} readings; the small organization's database alone: ${mib(empty)} MiB).`,
    ...(c === null
      ? []
      : [
          `- Corrections to 1 % of the readings (${c.readings.toLocaleString('en')}, the last 7 days, 100 meters a transaction): ${round(c.seconds, 1)} s; then (VACUUM ANALYZE) ` +
            `${describeStore(c.storage.days, c.storage.changeLogBytes, c.storage.readings).text}.`,
        ]),
    `- Export day of the whole fleet (the exporter's query, ${exported.channels.toLocaleString('en')} channel-days, no file written): ${exported.seconds} s, peak RSS growth ${exported.peakRssMb} MiB.`,
    '',
    '| route (its queries) | small org, loaded: p50 / p99 ms | small org, alone: p50 / p99 ms | loaded / alone (p50) |',
    '|---|---|---|---|',
    ...[...small].map(([route, t]) => {
      const e = smallEmpty.get(route)!;
      return `| ${route} | ${t.p50} / ${t.p99} | ${e.p50} / ${e.p99} | ${round(t.p50 / e.p50, 2)}x |`;
    }),
    '',
    `The large organization's 100-device dashboard: p50 ${fleet.get('dashboard')!.p50} ms, p99 ${fleet.get('dashboard')!.p99} ms.`,
    '',
    'Targets (issue 25):',
    '',
    ...targets(loaded, small, smallEmpty, fleet),
    '',
    RESULTS_END,
  ];
  const path = join(ROOT, 'docs', 'benchmarks.md');
  const doc = readFileSync(path, 'utf8');
  const [before, rest] = doc.includes(RESULTS_START) ? doc.split(RESULTS_START) : [doc, RESULTS_END];
  writeFileSync(path, before + lines.join('\n') + rest.split(RESULTS_END)[1]);
  console.log(lines.join('\n'));
}

async function main() {
  const id = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const admin = new Client({ connectionString: DATABASE_SERVER });
  await admin.connect();
  const names = [`meter_bench_scale_${id}`, `meter_bench_scale_empty_${id}`];
  try {
    let urls: string[];
    let loaded: Load;
    let empty: Load;
    if (REUSE) {
      urls = REUSE.map((name) => Object.assign(new URL(DATABASE_SERVER), { pathname: `/${name}` }).toString());
      loaded = { readings: METERS * DAYS * 24, seconds: NaN, storage: await analyzed(urls[0]), rawRate: NaN, corrections: null };
      empty = { readings: 0, seconds: 0, storage: await analyzed(urls[1]), rawRate: NaN, corrections: null };
    } else {
      urls = [await createDatabase(admin, names[0]), await createDatabase(admin, names[1])];
      console.error(`loading ${METERS} meters x ${DAYS} days into ${names[0]}`);
      loaded = await load(urls[0], true);
      empty = await load(urls[1], false);
    }
    console.error('timing routes');
    const [small, smallEmpty] = await timeRoutes(urls, SMALL, [1, 2, 3]);
    const [fleet] = await timeRoutes(
      [urls[0]],
      BIG,
      Array.from({ length: 100 }, (_, i) => 1 + Math.floor((i * METERS) / 100)),
      'dashboard',
    );
    const exported = await exportDay(urls[0]);
    report(loaded, empty.storage, small, smallEmpty, fleet, exported);
  } finally {
    if (KEEP || REUSE) console.error(`databases kept: ${REUSE?.join(',') ?? names.join(',')}`);
    else for (const name of names) await admin.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(name)} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
