import type { DataSource } from 'typeorm';
import { eventually, freePort, isolatedInfra, PlatformProcess, type IsolatedInfra } from '@meter/testing';

import { authDataSource, newOrg } from './harness/auth-org';

export { authDataSource, newOrg };
export { streamMessages } from './harness/stream-messages';

/** The built auth process on a free port, ready. */
export async function startAuth(infra: IsolatedInfra, extra: Record<string, string> = {}) {
  const port = await freePort();
  const process = PlatformProcess.start('apps/auth/src/main.js', infra.env({ AUTH_PORT: String(port), DATA_DIR: `.data/test-${infra.busPrefix}`, ...extra }));
  const base = `http://127.0.0.1:${port}`;
  await eventually(
    async () => {
      if (!process.running) throw new Error(`auth exited:\n${process.log()}`);
      return (await fetch(`${base}/readyz`)).status === 200;
    },
    30_000,
    'auth ready',
  ).catch((error: Error) => {
    throw new Error(`${error.message}\n${process.log()}`);
  });
  return { process, base };
}

/** Servers of its own (database, bus prefix, Redis prefix), a data source on its database and auth on them. */
export interface IsolatedAuth {
  infra: IsolatedInfra;
  db: DataSource;
  auth: { process: PlatformProcess; base: string };
}

export async function startIsolatedAuth(extra: Record<string, string> = {}): Promise<IsolatedAuth> {
  const infra = await isolatedInfra();
  const db = await authDataSource({ DATABASE_URL: infra.databaseUrl }, 'auth-test');
  return { infra, db, auth: await startAuth(infra, extra) };
}

/** Stops what `startIsolatedAuth` started; tolerates a start that failed half-way. */
export async function stopIsolatedAuth(stack: Partial<IsolatedAuth>): Promise<void> {
  await stack.auth?.process.stop();
  await stack.db?.destroy();
  await stack.infra?.cleanup();
}

export interface JsonResponse {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** One HTTP call; `body` as a string is sent as is (for broken JSON). */
export async function call(
  base: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<JsonResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let payload: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  }
  const response = await fetch(`${base}${path}`, { method, headers, body: payload, signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

export async function login(base: string, email: string, password: string): Promise<string> {
  const response = await call(base, 'POST', '/login', { body: { email, password } });
  if (response.status !== 200) throw new Error(`login failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.access_token as string;
}

/**
 * Every row of every table as JSON text, plus `pg_dump --data-only` when
 * pg_dump is on PATH (the same rows as an operator's backup would hold them).
 */
export async function databaseDump(dataSource: DataSource, databaseUrl?: string): Promise<string> {
  const rows = await rowsAsJson(dataSource);
  if (!databaseUrl) return rows;
  const { execFile } = await import('node:child_process');
  const { promisify } = await import('node:util');
  const dumped = await promisify(execFile)('pg_dump', ['--data-only', `--dbname=${databaseUrl}`], { maxBuffer: 64 * 1024 * 1024 }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return { stdout: '' };
      throw error;
    },
  );
  return `${rows}\n${dumped.stdout}`;
}

async function rowsAsJson(dataSource: DataSource): Promise<string> {
  const tables = (await dataSource.query(
    `SELECT table_schema, table_name FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
  )) as { table_schema: string; table_name: string }[];
  const parts: string[] = [];
  for (const t of tables) {
    const rows = (await dataSource.query(`SELECT row_to_json(x)::text AS j FROM "${t.table_schema}"."${t.table_name}" x`)) as { j: string }[];
    parts.push(...rows.map((r) => r.j));
  }
  return parts.join('\n');
}

/** The forms a leaked secret could take: as is, hex and base64 of its text, and of its decoded bytes. */
export function secretForms(secret: string): string[] {
  const raw = Buffer.from(secret, 'base64url');
  return [secret, Buffer.from(secret).toString('hex'), Buffer.from(secret).toString('base64'), raw.toString('hex'), raw.toString('base64')];
}
