import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from './free-port';

const ROOT = join(__dirname, '..', '..');

/** A built entry point of the platform, run as `npm start` would run it. */
export class PlatformProcess {
  readonly output: string[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;

  private constructor(readonly child: ChildProcess) {
    const collect = (chunk: Buffer) => this.output.push(...chunk.toString().split('\n').filter(Boolean));
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    this.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, at: Date.now() })));
  }

  /** `script` is relative to `dist/`, e.g. `scripts/start.js` or `apps/gateway/src/main.js`. */
  static start(script: string, env: Record<string, string>): PlatformProcess {
    const child = spawn(process.execPath, [join(ROOT, 'dist', script)], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new PlatformProcess(child);
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  signal(signal: NodeJS.Signals = 'SIGTERM'): void {
    if (this.running) this.child.kill(signal);
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.signal('SIGTERM');
    const timer = setTimeout(() => this.signal('SIGKILL'), 15_000);
    await this.exited;
    clearTimeout(timer);
  }

  log(): string {
    return this.output.join('\n');
  }
}

/** Polls until `probe` returns true, or fails with what the last attempt saw. */
export async function eventually<T>(probe: () => Promise<T | false>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const result = await probe();
      if (result !== false) return result;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} not reached within ${timeoutMs} ms${last ? ` (last error: ${String(last)})` : ''}`);
}

export async function httpStatus(url: string): Promise<number> {
  const response = await fetch(url, { signal: AbortSignal.timeout(3000) });
  await response.arrayBuffer();
  return response.status;
}

export type PlatformApp = 'gateway' | 'auth' | 'vault' | 'ingest' | 'integrations' | 'collectors';

/**
 * Starts a built app on a free port (`<APP>_PORT`) and waits until its
 * `/readyz` answers 200; a failure carries the app's log.
 */
export async function startReadyApp(app: PlatformApp, env: Record<string, string>, timeoutMs = 30_000): Promise<{ process: PlatformProcess; port: number }> {
  const port = await freePort();
  const started = PlatformProcess.start(`apps/${app}/src/main.js`, { ...env, [`${app.toUpperCase()}_PORT`]: String(port) });
  await eventually(async () => (await httpStatus(`http://127.0.0.1:${port}/readyz`)) === 200, timeoutMs, `${app} ready`).catch((error: Error) => {
    started.signal('SIGKILL');
    throw new Error(`${error.message}\n${started.log()}`);
  });
  return { process: started, port };
}
