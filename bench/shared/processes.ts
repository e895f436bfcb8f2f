import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export { freePort } from '../../test/harness/free-port';

const ROOT = join(__dirname, '..', '..', '..');

export interface StartOptions {
  /** Extra node flags, e.g. `--cpu-prof`. */
  nodeArgs?: string[];
  /** A taskset CPU list to pin the process to, e.g. `1`. */
  cpus?: string;
}

/** A built platform process for the benchmark, its output kept for failures. */
export function startProcess(script: string, env: Record<string, string>, options: StartOptions = {}): { child: ChildProcess; log: () => string } {
  const lines: string[] = [];
  const command = [process.execPath, ...(options.nodeArgs ?? []), join(ROOT, 'dist', script)];
  if (options.cpus) command.unshift('taskset', '-c', options.cpus);
  const child = spawn(command[0], command.slice(1), { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (c: Buffer) => lines.push(c.toString()));
  child.stderr?.on('data', (c: Buffer) => lines.push(c.toString()));
  return { child, log: () => lines.join('') };
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

export async function waitFor(probe: () => Promise<boolean>, timeoutMs: number, what: string, intervalMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`${what} not reached within ${timeoutMs} ms`);
}

export async function ready(port: number): Promise<boolean> {
  const response = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(2000) });
  return response.status === 200;
}

/** The p-th percentile (nearest rank) of values sorted ascending: a plain array or a typed one. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export const round = (n: number, places = 1) => Math.round(n * 10 ** places) / 10 ** places;
