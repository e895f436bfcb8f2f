import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, isolatedInfra, PlatformProcess, startReadyApp, type IsolatedInfra } from '@meter/testing';
import { AuthEvents, testKeyRing, type TestCredential } from './gateway-support';

const ROOT = join(__dirname, '..');
const CLI = join(ROOT, 'dist', 'apps', 'cli', 'src', 'main.js');

async function cli(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 30_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** Every command, as typed after `npm run cli --`. */
const COMMANDS = [
  'migrate',
  'org',
  'org create',
  'admin',
  'admin deactivate',
  'keys',
  'keys rotate-credentials',
  'keys rotate-vault',
  'sign',
  'call',
  'simulate',
  'rebuild',
  'demo',
];

describe('the CLI: version, help and one exit-code rule (0 done, 1 failed, 2 usage)', () => {
  it('--version prints the platform version', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) expect(await cli([flag])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('--help lists every command', async () => {
    const { code, stdout } = await cli(['--help']);
    expect(code).toBe(0);
    for (const command of COMMANDS) expect(stdout).toContain(command);
    expect(stdout).toMatch(/Exit codes: 0 done, 1 failed .*, 2 usage/);
  });

  it.each(COMMANDS)('%s --help prints its usage on stdout', async (command) => {
    const result = await cli([...command.split(' '), '--help']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^Usage: npm run cli -- ${command} `));
    expect(result.stderr).toBe('');
  });

  it.each([
    ['no command', []],
    ['an unknown command', ['nope']],
    ['a group without its command', ['keys']],
    ['an unknown option', ['rebuild', '--bogus']],
    ['a missing required option', ['simulate']],
    ['an option without its value', ['rebuild', '--org']],
    ['a bad value', ['simulate', '--org', 'o', '--interval', '7s']],
    ['an extra argument', ['sign', '--access-key', 'sk_live_a', '--secret-key', 'b', 'http://h/a', 'http://h/b']],
  ])('exits 2 for %s, saying what is wrong on stderr', async (_, args) => {
    const result = await cli(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).not.toBe('');
  });

  it('exits 2 for a bad environment variable, naming it', async () => {
    const result = await cli(['migrate'], { DATABASE_URL: 'mysql://h/db' });
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(/^invalid configuration: DATABASE_URL /);
  });

  it('exits 1 when the work fails: a server that does not answer', async () => {
    const closed = await freePort();
    const call = await cli(['call', '--access-key', 'sk_live_a', '--secret-key', 'b', `http://127.0.0.1:${closed}/meter/v1/devices`]);
    expect(call.code).toBe(1);
    expect(call.stderr).toMatch(/^error: fetch failed: .*ECONNREFUSED/m);
    const migrate = await cli(['migrate'], { DATABASE_URL: `postgres://postgres@127.0.0.1:${closed}/meter` });
    expect(migrate.code).toBe(1);
    expect(migrate.stderr).toMatch(/^error: /m);
  });
});

describe('the CLI against the real servers', () => {
  let infra: IsolatedInfra;
  let gateway: PlatformProcess;
  let events: AuthEvents;
  let port: number;
  let credential: TestCredential;

  beforeAll(async () => {
    infra = await isolatedInfra();
    const keys = await testKeyRing();
    events = await AuthEvents.connect(infra.natsUrl, infra.bus, keys.ring);
    // About 1 secret in 64 begins with "-"; this one always does.
    credential = await events.createCredential({ secretKey: `-H${randomBytes(24).toString('base64url')}` });
    ({ process: gateway, port } = await startReadyApp('gateway', infra.env({ CREDENTIAL_KEYRING: keys.env })));
  });

  afterAll(async () => {
    await gateway?.stop();
    await events?.close();
    await infra?.cleanup();
  });

  const secretForms = () => [['--secret-key', credential.secretKey], [`--secret-key=${credential.secretKey}`]];

  it('call takes a secret key beginning with "-", as a separate word and after "="', async () => {
    for (const secret of secretForms()) {
      const result = await cli(['call', '--access-key', credential.accessKey, ...secret, `http://127.0.0.1:${port}/meter/v1/devices`]);
      expect(result.stderr).toContain('HTTP 200');
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toHaveProperty('devices', []);
    }
  });

  it('sign takes a secret key beginning with "-" in both forms, and the gateway accepts the header', async () => {
    for (const secret of secretForms()) {
      const url = `http://127.0.0.1:${port}/meter/v1/devices`;
      const result = await cli(['sign', '--access-key', credential.accessKey, ...secret, url]);
      expect(result.code, result.stderr).toBe(0);
      const authorization = result.stdout.trim().replace(/^Authorization: /, '');
      expect((await fetch(url, { headers: { authorization } })).status).toBe(200);
    }
  });

  it('simulate shows its progress on stderr and keeps stdout for its JSON answer', async () => {
    const result = await cli(['simulate', '--org', 'org_progress', '--meters', '2', '--days', '1', '--per-message', '5'], infra.env());
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ org_id: 'org_progress', meters: 2, readings: 50, messages: 2 + 10 });
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe(`simulate: publishing 2 meters to ${infra.bus.subject('meter.readings.>')}: 50 readings acknowledged by JetStream`);
    expect(lines.at(-1)).toBe('simulate: 50 of 50 readings acknowledged by JetStream (100%), 12 messages');
  });

  it('rebuild shows its progress on stderr and keeps stdout for its JSON answer', async () => {
    const result = await cli(['rebuild', '--org', 'org_none'], infra.env());
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ devices: 0, rows_changed: 0 });
    expect(result.stderr.trimEnd().split('\n')).toEqual(['rebuild: organization org_none: 0 devices', 'rebuild: 0 of 0 devices (100%), 0 rows changed']);
  });
});
