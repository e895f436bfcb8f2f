import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/nats-core';
import { followConnectionState } from './connection-state';
import { unsupportedNatsServer } from './nats-server-version';

/** Who a process is on NATS, for servers that enforce per-user permissions (deploy/base/nats). */
export interface NatsIdentity {
  user?: string;
  pass?: string;
  /** Reply subjects under a prefix only this user may subscribe to. */
  inboxPrefix?: string;
}

/** The identity from the NATS_USER / NATS_PASSWORD / NATS_INBOX_PREFIX variables. */
export function natsIdentity(config: { NATS_USER?: string; NATS_PASSWORD?: string; NATS_INBOX_PREFIX?: string }): NatsIdentity {
  return { user: config.NATS_USER, pass: config.NATS_PASSWORD, inboxPrefix: config.NATS_INBOX_PREFIX };
}

function defined(identity: NatsIdentity): NatsIdentity {
  return Object.fromEntries(Object.entries(identity).filter(([, v]) => v !== undefined));
}

/**
 * A connection that reconnects forever once established; the first
 * connect fails fast so an unreachable server stops start-up with a clear
 * message instead of a silent wait.
 */
export async function connectNats(url: string, name: string, identity: NatsIdentity = {}): Promise<NatsConnection> {
  const nc = await connect({
    servers: url,
    name,
    timeout: 3000,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    waitOnFirstConnect: false,
    pingInterval: 10_000,
    // nats.js otherwise builds two Error objects (stack traces) per request up front, to
    // name the caller should it fail: a third of the collectors' CPU per uplink
    // (docs/benchmarks.md, "Collectors"). Errors keep their messages.
    noAsyncTraces: true,
    ...defined(identity),
  });
  followConnectionState(nc);
  return nc;
}

/** Connects once; refuses a server older than MIN_NATS_SERVER_VERSION or without JetStream. */
export async function probeNats(url: string, identity: NatsIdentity = {}): Promise<void> {
  const nc = await connect({ servers: url, timeout: 3000, maxReconnectAttempts: 0, reconnect: false, ...defined(identity) });
  try {
    await nc.flush();
    const unsupported = unsupportedNatsServer(nc.info);
    if (unsupported) throw new Error(unsupported);
  } finally {
    await nc.close();
  }
}
