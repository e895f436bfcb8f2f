import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { intervalsFromReadings } from '@meter/consumption';
import { simulatedMeter, simulatedReadings } from '@meter/cli';
import { eventually, freePort, httpStatus, isolatedInfra, PlatformProcess, type IsolatedInfra } from '@meter/testing';

const ROOT = join(__dirname, '..');
const METERS = 100;
const DAYS = 42; // 100 meters x (42 x 24 + 1) hourly readings = 100,900
const ZONE = 'Europe/Madrid';

/** Runs the built CLI with arguments; resolves with its stdout. */
function cli(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'dist/apps/cli/src/main.js'), ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`cli ${args.join(' ')} exited ${code}: ${err}`))));
  });
}

describe('ingest survives kill -9 with 100k readings in flight', () => {
  let infra: IsolatedInfra;
  let db: Client;
  const processes: PlatformProcess[] = [];

  const startIngest = async () => {
    const port = await freePort();
    const ingest = PlatformProcess.start('apps/ingest/src/main.js', infra.env({ INGEST_PORT: String(port) }));
    processes.push(ingest);
    await eventually(async () => (await httpStatus(`http://127.0.0.1:${port}/readyz`)) === 200, 30_000, 'ingest ready').catch((error: Error) => {
      throw new Error(`${error.message}\n${ingest.log()}`);
    });
    return ingest;
  };
  const stored = async () => Number((await db.query('SELECT count(*) AS n FROM ingest.readings')).rows[0].n);

  beforeAll(async () => {
    infra = await isolatedInfra();
    db = new Client({ connectionString: infra.databaseUrl });
    await db.connect();
  });

  afterAll(async () => {
    for (const p of processes) await p.stop();
    await db?.end();
    await infra?.cleanup();
  });

  it('holds exactly what was published after a restart: nothing lost, nothing counted twice', async () => {
    const first = await startIngest();
    const simulation = cli(['simulate', '--org', 'org_fault', '--meters', String(METERS), '--days', String(DAYS), '--time-zone', ZONE], infra.env());
    // Kill it hard while batches are being written and acknowledged.
    await eventually(async () => (await stored()) >= 15_000, 60_000, '15k readings stored before the kill');
    first.signal('SIGKILL');
    const killed = await first.exited;
    expect(killed.signal).toBe('SIGKILL');
    const atKill = await stored();
    const summary = JSON.parse(await simulation) as { readings: number; from: string; to: string };
    expect(summary.readings).toBe(METERS * (DAYS * 24 + 1));
    expect(atKill).toBeLessThan(summary.readings);

    await startIngest();
    await eventually(async () => (await stored()) === summary.readings, 90_000, `all ${summary.readings} readings stored`);

    // Every stored interval links to the true predecessor, and no reading is stored twice.
    const links = await db.query(`
      SELECT count(*) FILTER (WHERE prev_read_at IS DISTINCT FROM prev) AS bad_links,
             count(*) FILTER (WHERE prev IS NOT NULL AND delta <> greatest(value - prev_value, 0)) AS bad_deltas,
             count(DISTINCT (device_id, read_at)) AS distinct_readings
      FROM (SELECT prev_read_at, delta, value, lag(read_at) OVER w AS prev, lag(value) OVER w AS prev_value, device_id, read_at
            FROM ingest.readings WINDOW w AS (PARTITION BY org_id, device_id, channel ORDER BY read_at)) x`);
    expect(links.rows[0]).toEqual({ bad_links: '0', bad_deltas: '0', distinct_readings: String(summary.readings) });

    // Each meter's consumption is exactly what the simulation produced.
    const totals = await db.query(
      `SELECT device_id::int AS id, sum(delta) AS total, count(*)::int AS n FROM ingest.readings GROUP BY device_id ORDER BY device_id`,
    );
    expect(totals.rows).toHaveLength(METERS);
    for (const row of totals.rows as { id: number; total: number; n: number }[]) {
      const readings = simulatedReadings(simulatedMeter(row.id, ZONE, 1), Date.parse(summary.from), Date.parse(summary.to), 3600_000);
      const expected = intervalsFromReadings(readings).reduce((sum, i) => sum + i.delta, 0);
      expect(row.n).toBe(readings.length);
      expect(row.total).toBeCloseTo(expected, 6);
    }
  }, 240_000);
});
