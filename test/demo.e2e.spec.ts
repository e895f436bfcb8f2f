import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { jetstream } from '@nats-io/jetstream';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectNats } from '@meter/messaging';
import { eventually, freePort, httpStatus, isolatedInfra, PlatformProcess, type IsolatedInfra } from '@meter/testing';

const ROOT = join(__dirname, '..');
const SERVICES = ['gateway', 'auth', 'vault', 'ingest', 'integrations', 'collectors'] as const;
/** What `npm run demo` runs. */
const DEMO = [join(ROOT, 'dist', 'apps', 'cli', 'src', 'main.js'), 'demo'];
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
  let authPort: number;
  let demo: { stdout: string; stderr: string };
  let answer: Record<string, unknown>;

  /** Runs `npm run demo` against the platform; fails with everything it and the platform said. */
  const runDemo = () =>
    run(process.execPath, DEMO, { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 150_000 }).catch(
      (error: { code?: number; stdout?: string; stderr?: string }) => {
        throw new Error(`demo exited ${error.code}\n${error.stdout}\n${error.stderr}\n${platform.log()}`);
      },
    );

  /** Readings of the organization in the read model. */
  const storedReadings = async (orgId: string) => {
    const db = new Client({ connectionString: infra.databaseUrl });
    await db.connect();
    try {
      // Meters 1-3; the demo's last step adds a leaking meter 4 of its own.
      const { rows } = await db.query<{ n: string }>('SELECT count(*) AS n FROM ingest.readings WHERE org_id = $1 AND device_id <= 3', [orgId]);
      return Number(rows[0].n);
    } finally {
      await db.end();
    }
  };

  /** The projection the demo printed after "Its answer: HTTP 200". */
  const printedAnswer = (stdout: string) => {
    const afterStatus = stdout.split(/^Its answer: HTTP 200$/m);
    expect(afterStatus, 'an answer line with HTTP 200').toHaveLength(2);
    return JSON.parse(afterStatus[1].slice(0, afterStatus[1].indexOf('\n}\n') + 2)) as Record<string, unknown>;
  };

  beforeAll(async () => {
    infra = await isolatedInfra({ migrate: false });
    const ports = Object.fromEntries(await Promise.all(SERVICES.map(async (s) => [s, await freePort()] as const)));
    gatewayPort = ports.gateway;
    authPort = ports.auth;
    env = infra.env({
      GATEWAY_PORT: String(ports.gateway),
      AUTH_PORT: String(ports.auth),
      VAULT_PORT: String(ports.vault),
      INGEST_PORT: String(ports.ingest),
      INTEGRATIONS_PORT: String(ports.integrations),
      COLLECTORS_PORT: String(ports.collectors),
      COLLECTORS_MQTT_PORT: String(await freePort()),
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
    demo = await runDemo();
    expect(demo.stdout).toMatch(/^Organization org_\S+, admin demo\+\S+@example\.com$/m);
    expect(demo.stdout).toMatch(/^API credential sk_live_\S+ \(meter:consumption:read\)$/m);
    // 3 meters, 100 days of hours and the reading at the start: 3 x 2401.
    expect(demo.stdout).toMatch(/^Published 3 meters with 100 days of hourly readings: 7203 readings in \d+ messages; ingested$/m);
    // "ingested" means in the read model, not only on the bus.
    const org = /^Organization (org_\S+),/m.exec(demo.stdout)![1];
    expect(await storedReadings(org)).toBe(7203);
    expect(demo.stdout).toMatch(/its signature's timestamp is accepted for 300 s, until \d{2}:\d{2}:\d{2} UTC/);

    answer = printedAnswer(demo.stdout);
    expect(answer).toMatchObject({ device_id: '1', unit: 'm³', currency_symbol: '€' });
    const today = new Date().getUTCDate();
    expect(answer.days_used_for_calculation).toBeGreaterThanOrEqual(Math.max(today - 2, 0));
    // The simulated households draw 0.15..0.65 m³ a day.
    expect(answer.average_daily_consumption).toBeGreaterThan(0.1);
    expect(answer.average_daily_consumption).toBeLessThan(1);
    expect(answer.projected_value).toBeGreaterThan(answer.average_daily_consumption as number);
    expect(answer.projected_cost).toBeGreaterThan(0);
  }, 180_000);

  it('ends with the LEAK alert of a leaking meter arriving at a local receiver it starts, its signature verified', () => {
    expect(demo.stdout).toMatch(
      /^Webhook endpoint [0-9a-f-]{36} -> http:\/\/127\.0\.0\.1:\d+\/webhooks \(alert\.raised\); its secret, shown once: whsec_\S+$/m,
    );
    const line = /^Webhook received [\d.]+ s after publishing, webhook-id [0-9a-f-]{36}, signature verified with the endpoint's secret:$/m;
    expect(demo.stdout).toMatch(line);
    // The webhook's body: the pretty-printed JSON after that line, up to its closing brace.
    const after = demo.stdout.slice(demo.stdout.search(line)).split('\n').slice(1);
    const body = JSON.parse(after.slice(0, after.indexOf('}') + 1).join('\n')) as unknown;
    expect(body).toMatchObject({ type: 'alert.raised', data: { code: 'LEAK', device_id: 4, channel: 1, state: 'open' } });
  });

  it('leaves no webhook endpoint behind: the one it served is deleted before its receiver stops', async () => {
    const id = /^Webhook endpoint ([0-9a-f-]{36}) -> /m.exec(demo.stdout)![1];
    expect(demo.stdout).toMatch(new RegExp(`^Webhook endpoint ${id} deleted: its receiver stops with the demo\\.$`, 'm'));
    const [, email, password] = /\(log in as (\S+) \/ (\S+)\)/.exec(demo.stdout)!;
    const management = `http://127.0.0.1:${authPort}`;
    const login = await fetch(`${management}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    const { access_token: token } = (await login.json()) as { access_token: string };
    const listed = await fetch(`${management}/webhook-endpoints`, { headers: { authorization: `Bearer ${token}` } });
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual({ endpoints: [] });
  });

  it('prints the keys, the --secret-key= form and the admin login before it waits for its readings, and its progress on stderr', async () => {
    const published = demo.stdout.search(/^Published /m);
    const before = demo.stdout.slice(0, published);
    const accessKey = /^API credential (sk_live_\S+) /m.exec(demo.stdout)![1];
    const cliCall = printedCommand(demo.stdout, 'npm run cli -- call');
    expect(before).toContain(cliCall);
    expect(cliCall).toMatch(/^ {2}--secret-key=\S+ \\$/m);
    expect(before).toMatch(/\(log in as demo\+\S+@example\.com \/ \S+\)/);
    expect(before).toMatch(/^Admin console http:\/\/\S+\/console\/ \(sign in with email demo\+\S+@example\.com and password \S+\)$/m);
    // the printed export sets both keys, whatever characters the secret holds
    const exported = before.split('\n').find((l) => l.trim().startsWith('export METER_ACCESS_KEY='))!;
    const { stdout } = await run('sh', ['-c', `${exported}; printf '%s\\n%s' "$METER_ACCESS_KEY" "$METER_SECRET_KEY"`]);
    const [access, secret] = stdout.split('\n');
    expect(access).toBe(accessKey);
    expect((await shellWords(cliCall)).find((w) => w.startsWith('--secret-key='))).toBe(`--secret-key=${secret}`);

    expect(demo.stderr).toMatch(/^demo: 7,203 of 7,203 readings acknowledged by JetStream \(100%\)$/m);
    expect(demo.stderr).toMatch(/^demo: 7,203 of 7,203 readings stored by ingest \(100%\)$/m);
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

  it("succeeds again on the same platform after another organization's traffic, poison messages and failed logins, waiting only for its own readings", async () => {
    // Another organization's meters, still being ingested while the demo runs.
    const other = await run(process.execPath, [DEMO[0], 'simulate', '--org', 'org_other', '--meters', '5', '--days', '30'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    expect(JSON.parse(other.stdout)).toMatchObject({ readings: 5 * (30 * 24 + 1) });
    // Poison messages: not JSON, a reading that breaks the schema, a subject without a device id, a device without a name.
    const nc = await connectNats(infra.natsUrl, 'demo-test');
    try {
      const js = jetstream(nc);
      for (const [subject, payload] of [
        ['meter.readings.org_poison.1', 'not json'],
        ['meter.readings.org_poison.1', JSON.stringify({ read_at: 'yesterday', value: -1 })],
        ['meter.readings.org_poison.abc', JSON.stringify({ read_at: new Date().toISOString(), value: 1 })],
        ['meter.devices.org_poison.2', JSON.stringify({})],
      ]) {
        await js.publish(infra.bus.subject(subject), payload);
      }
    } finally {
      await nc.drain();
    }
    // Failed logins from the same address, below its limit.
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`http://127.0.0.1:${authPort}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'nobody@example.com', password: 'wrong password' }),
      });
      expect(response.status).toBe(401);
    }

    const again = await runDemo();
    const org = /^Organization (org_\S+),/m.exec(again.stdout)![1];
    expect(org).not.toBe(/^Organization (org_\S+),/m.exec(demo.stdout)![1]);
    expect(again.stdout).toMatch(/^Published 3 meters with 100 days of hourly readings: 7203 readings in \d+ messages; ingested$/m);
    expect(await storedReadings(org)).toBe(7203);
    expect(printedAnswer(again.stdout)).toMatchObject({ device_id: '1', unit: 'm³' });
  }, 180_000);
});
