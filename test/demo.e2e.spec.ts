import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort, httpStatus, isolatedInfra, PlatformProcess, type IsolatedInfra } from '@meter/testing';

const ROOT = join(__dirname, '..');
const SERVICES = ['gateway', 'auth', 'vault', 'ingest'] as const;
const run = promisify(execFile);

/** The words sh makes of a printed command (quotes, `\` line continuations), without running it. */
async function shellWords(command: string): Promise<string[]> {
  const { stdout } = await run('sh', ['-c', `set -- ${command}; for w in "$@"; do printf '%s\\n' "$w"; done`]);
  return stdout.trimEnd().split('\n');
}

/** The lines of `output` from the one starting with `start` to the first not ending in a `\` continuation. */
function printedCommand(output: string, start: string): string {
  const lines = output.split('\n');
  const first = lines.findIndex((l) => l.startsWith(start));
  expect(first, `a line starting with ${start}`).toBeGreaterThanOrEqual(0);
  let last = first;
  while (lines[last].endsWith('\\')) last++;
  return lines.slice(first, last + 1).join('\n');
}

describe('npm run demo against the platform as `npm start` runs it', () => {
  let infra: IsolatedInfra;
  let env: Record<string, string>;
  let platform: PlatformProcess;
  let gatewayPort: number;
  let demo: { stdout: string; stderr: string };
  let answer: Record<string, unknown>;

  beforeAll(async () => {
    infra = await isolatedInfra({ migrate: false });
    const ports = Object.fromEntries(await Promise.all(SERVICES.map(async (s) => [s, await freePort()] as const)));
    gatewayPort = ports.gateway;
    env = infra.env({
      GATEWAY_PORT: String(ports.gateway),
      AUTH_PORT: String(ports.auth),
      VAULT_PORT: String(ports.vault),
      INGEST_PORT: String(ports.ingest),
    });
    platform = PlatformProcess.start('scripts/start.js', env);
    for (const service of SERVICES) {
      await eventually(async () => (await httpStatus(`http://127.0.0.1:${ports[service]}/readyz`)) === 200, 40_000, `${service} ready`).catch(
        (error: Error) => {
          throw new Error(`${error.message}\n${platform.log()}`);
        },
      );
    }
  });

  afterAll(async () => {
    await platform?.stop();
    await infra?.cleanup();
  });

  it('exits 0 after publishing 100 days of hourly readings, printing a signed request and its 200 answer with a real projection', async () => {
    demo = await run(process.execPath, [join(ROOT, 'dist', 'scripts', 'demo.js')], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...env },
      timeout: 90_000,
    }).catch((error: { code?: number; stdout?: string; stderr?: string }) => {
      throw new Error(`demo exited ${error.code}\n${error.stdout}\n${error.stderr}\n${platform.log()}`);
    });
    expect(demo.stdout).toMatch(/^Organization org_\S+, admin demo\+\S+@example\.com$/m);
    expect(demo.stdout).toMatch(/^API credential sk_live_\S+ \(meter:consumption:read\)$/m);
    // 3 meters, 100 days of hours and the reading at the start: 3 x 2401.
    expect(demo.stdout).toMatch(/^Published 3 meters with 100 days of hourly readings: 7203 readings in \d+ messages; ingested$/m);
    // "ingested" means in the read model, not only on the bus.
    const org = /^Organization (org_\S+),/m.exec(demo.stdout)![1];
    const db = new Client({ connectionString: infra.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{ n: string }>('SELECT count(*) AS n FROM ingest.readings WHERE org_id = $1', [org]);
      expect(Number(rows[0].n)).toBe(7203);
    } finally {
      await db.end();
    }
    expect(demo.stdout).toMatch(/its signature's timestamp is accepted for 300 s, until \d{2}:\d{2}:\d{2} UTC/);

    const afterStatus = demo.stdout.split(/^Its answer: HTTP 200$/m);
    expect(afterStatus, 'an answer line with HTTP 200').toHaveLength(2);
    answer = JSON.parse(afterStatus[1].slice(0, afterStatus[1].indexOf('\n}\n') + 2)) as Record<string, unknown>;
    expect(answer).toMatchObject({ device_id: '1', unit: 'm³', currency_symbol: '€' });
    const today = new Date().getUTCDate();
    expect(answer.days_used_for_calculation).toBeGreaterThanOrEqual(Math.max(today - 2, 0));
    // The simulated households draw 0.15..0.65 m³ a day.
    expect(answer.average_daily_consumption).toBeGreaterThan(0.1);
    expect(answer.average_daily_consumption).toBeLessThan(1);
    expect(answer.projected_value).toBeGreaterThan(answer.average_daily_consumption as number);
    expect(answer.projected_cost).toBeGreaterThan(0);
  });

  it('prints a curl whose Authorization header the gateway accepts, for that target only', async () => {
    const [url, flag, header, ...rest] = await shellWords(printedCommand(demo.stdout, 'curl ').replace(/^curl -sS /, ''));
    expect(flag).toBe('-H');
    expect(rest).toEqual([]);
    expect(new URL(url).port).toBe(String(gatewayPort));
    const authorization = header.replace(/^Authorization: /, '');
    expect(authorization).toMatch(/^SVC-HMAC access_key=sk_live_\S+ signature=[0-9a-f]{64} timestamp=\d+$/);

    const response = await fetch(url, { headers: { authorization } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(answer);

    const other = new URL(url);
    other.searchParams.set('device_id', '2');
    expect((await fetch(other, { headers: { authorization } })).status).toBe(401);
  });

  it('prints an `npm run cli -- call` command that, pasted into a shell, gets the same answer', async () => {
    const command = printedCommand(demo.stdout, 'npm run cli -- call');
    const { stdout, stderr } = await run('sh', ['-c', command], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
      timeout: 30_000,
    });
    expect(stderr).toContain('HTTP 200');
    expect(JSON.parse(stdout.trimEnd().split('\n').at(-1)!)).toEqual(answer);
  });
});
