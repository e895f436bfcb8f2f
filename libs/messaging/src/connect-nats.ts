import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/nats-core';

/**
 * A connection that reconnects forever once established; the first
 * connect fails fast so an unreachable server stops start-up with a clear
 * message instead of a silent wait.
 */
export async function connectNats(url: string, name: string): Promise<NatsConnection> {
  return connect({
    servers: url,
    name,
    timeout: 3000,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    waitOnFirstConnect: false,
    pingInterval: 10_000,
  });
}

export async function probeNats(url: string): Promise<void> {
  const nc = await connect({ servers: url, timeout: 3000, maxReconnectAttempts: 0, reconnect: false });
  await nc.flush();
  await nc.close();
}
