import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import type { NatsConnection, SubscriptionOptions } from '@nats-io/nats-core';
import { freePort } from './free-port';
import { eventually } from './platform-process';

const PERMISSIONS = join(__dirname, '..', '..', 'deploy/base/nats/vault-permissions.conf');

/** The users of deploy/base/nats/vault-permissions.conf and the passwords a private server gives them. */
export const NATS_USER_PASSWORDS = {
  vault: 'vault-pw',
  auth: 'auth-pw',
  integration: 'integration-pw',
  gateway: 'gateway-pw',
  ingest: 'ingest-pw',
  collectors: 'collectors-pw',
} as const;
export type NatsUser = keyof typeof NATS_USER_PASSWORDS;

/** The nats-server binary, if the machine has one (CI does); without it there is nothing to run the permissions on. */
export const natsServerBinary = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/bin']
  .map((dir) => join(dir, 'nats-server'))
  .find((path) => existsSync(path));

/**
 * A nats-server of one test file that runs deploy/'s permissions file as written,
 * each user's password from its environment as in the cluster.
 */
export class PrivateNats {
  private readonly clients: NatsConnection[] = [];

  private constructor(
    readonly url: string,
    /** Where its configuration and JetStream store live. */
    readonly dir: string,
    private server: ChildProcess,
    private readonly launch: () => ChildProcess,
  ) {}

  /** `noAuthUser`: the user of clients that send no credentials (the vault process, unchanged, in the vault's tests). */
  static async start(options: { jetstream?: boolean; noAuthUser?: NatsUser } = {}): Promise<PrivateNats> {
    if (!natsServerBinary) throw new Error('nats-server is not on PATH');
    const dir = await mkdtemp(join(tmpdir(), 'private-nats-'));
    const port = await freePort();
    await copyFile(PERMISSIONS, join(dir, 'vault-permissions.conf'));
    const lines = [
      `listen: 127.0.0.1:${port}`,
      ...(options.jetstream ? [`jetstream { store_dir: "${join(dir, 'js')}" }`] : []),
      ...(options.noAuthUser ? [`no_auth_user: ${options.noAuthUser}`] : []),
      'include vault-permissions.conf',
    ];
    await writeFile(join(dir, 'server.conf'), `${lines.join('\n')}\n`);
    const env = Object.fromEntries(Object.entries(NATS_USER_PASSWORDS).map(([user, password]) => [`${user.toUpperCase()}_NATS_PASSWORD`, password]));
    const launch = () => spawn(natsServerBinary!, ['-c', join(dir, 'server.conf')], { env, stdio: 'ignore' });
    const nats = new PrivateNats(`nats://127.0.0.1:${port}`, dir, launch(), launch);
    await nats.up();
    return nats;
  }

  private async up(): Promise<void> {
    await eventually(async () => Boolean(await connectable(this.url)), 10_000, 'nats-server up');
  }

  /** Stops the server (an outage its clients see), keeping its store for resume(). */
  async halt(): Promise<void> {
    const exited = new Promise((resolve) => this.server.once('exit', resolve));
    this.server.kill('SIGTERM');
    await exited;
  }

  /** Starts the server again on the same port and store. */
  async resume(): Promise<void> {
    this.server = this.launch();
    await this.up();
  }

  /** A connection as `user`; closed by stop(). */
  async as(user: NatsUser, options: { inboxPrefix?: string } = {}): Promise<NatsConnection> {
    const nc = await connect({ servers: this.url, user, pass: NATS_USER_PASSWORDS[user], ...options });
    this.clients.push(nc);
    return nc;
  }

  /** The environment a platform process needs to log in as `user`, as deploy/ sets it. */
  env(user: NatsUser, inboxPrefix?: string): Record<string, string> {
    return {
      NATS_URL: this.url,
      BUS_PREFIX: '',
      NATS_USER: user,
      NATS_PASSWORD: NATS_USER_PASSWORDS[user],
      ...(inboxPrefix ? { NATS_INBOX_PREFIX: inboxPrefix } : {}),
    };
  }

  async stop(): Promise<void> {
    await Promise.all(this.clients.map((nc) => nc.close().catch(() => undefined)));
    // The store is removed once the server has exited: while it shuts down it still writes there (ENOTEMPTY).
    if (this.server.exitCode === null && this.server.signalCode === null) await this.halt();
    await rm(this.dir, { recursive: true, force: true });
  }
}

async function connectable(url: string): Promise<boolean> {
  const nc = await connect({ servers: url, user: 'gateway', pass: NATS_USER_PASSWORDS.gateway, reconnect: false, timeout: 1000 });
  await nc.close();
  return true;
}

/** The permission error a subscription ends with, or undefined if it is still open after a round trip. */
export async function subscribeOutcome(nc: NatsConnection, subject: string, options: Omit<SubscriptionOptions, 'callback'> = {}): Promise<string | undefined> {
  let failure: Error | undefined;
  nc.subscribe(subject, { ...options, callback: (error: Error | null) => void (failure ??= error ?? undefined) });
  await nc.flush();
  await new Promise((resolve) => setTimeout(resolve, 200));
  await nc.flush();
  return failure?.message;
}

/** 'answered', or the error a request ends with (a permission violation names the subject). */
export async function requestError(nc: NatsConnection, subject: string, body = '{}'): Promise<string> {
  try {
    await nc.request(subject, body, { timeout: 2000 });
    return 'answered';
  } catch (error) {
    return (error as Error).message;
  }
}
