import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { loadConfigOrExit } from '@meter/config';
import { preflight } from '@meter/platform';

const SERVICES = ['auth', 'vault', 'ingest', 'integrations', 'collectors', 'gateway'] as const;
const DIST = join(__dirname, '..');
const COLORS: Record<string, string> = { gateway: '36', auth: '35', vault: '33', ingest: '32', integrations: '34', collectors: '31', start: '1' };

function prefixed(name: string): string {
  const label = name.padEnd(10);
  return process.stdout.isTTY ? `\u001b[${COLORS[name]}m[${label}]\u001b[0m ` : `[${label}] `;
}

function pipeLines(child: ChildProcess, name: string) {
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ] as const) {
    if (!stream) continue;
    createInterface({ input: stream }).on('line', (line) => out.write(`${prefixed(name)}${line}\n`));
  }
}

/**
 * Migrates the way every deployment does, with the CLI's `migrate` command
 * (the Kubernetes Job and compose run the same), its lines under `start`.
 */
function migrate(): Promise<void> {
  const child = spawn(process.execPath, [join(DIST, 'apps', 'cli', 'src', 'main.js'), 'migrate'], { env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  pipeLines(child, 'start');
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`migrate exited (${signal ?? `code ${code}`})`))));
  });
}

/**
 * `npm start`: check the three servers, migrate, then run the six
 * processes with prefixed logs until a signal, forwarding it to them.
 */
async function main() {
  const config = loadConfigOrExit();
  const say = (line: string) => process.stdout.write(`${prefixed('start')}${line}\n`);
  try {
    await preflight(config, ['postgres', 'redis', 'nats']);
  } catch (error) {
    process.stderr.write(`start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  await migrate();

  const children = new Map<string, ChildProcess>();
  let stopping = false;
  let exitCode = 0;

  const stopAll = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    for (const child of children.values()) if (child.exitCode === null) child.kill(signal);
  };

  for (const name of SERVICES) {
    const child = spawn(process.execPath, [join(DIST, 'apps', name, 'src', 'main.js')], {
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.set(name, child);
    pipeLines(child, name);
    child.on('exit', (code, signal) => {
      children.delete(name);
      if (!stopping) {
        say(`${name} exited (${signal ?? `code ${code}`}); stopping the others`);
        exitCode = 1;
        stopAll('SIGTERM');
      } else if (code !== 0) {
        exitCode = code ?? 1;
      }
      if (children.size === 0) process.exit(exitCode);
    });
  }
  say(
    `started ${SERVICES.join(', ')}: gateway :${config.GATEWAY_PORT}, auth :${config.AUTH_PORT}, vault :${config.VAULT_PORT}, ingest :${config.INGEST_PORT}, integrations :${config.INTEGRATIONS_PORT}, collectors :${config.COLLECTORS_PORT} (MQTT :${config.COLLECTORS_MQTT_PORT})`,
  );
  process.on('SIGINT', () => stopAll('SIGTERM'));
  process.on('SIGTERM', () => stopAll('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(`start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
