import type { NatsConnection } from '@nats-io/nats-core';

const disconnected = new WeakSet<NatsConnection>();

/**
 * Follows a connection's status so a caller can tell at once that the bus
 * is unreachable, instead of waiting out a request's whole timeout while the
 * client reconnects (connectNats does this for every platform connection).
 */
export function followConnectionState(nc: NatsConnection): void {
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect' || status.type === 'staleConnection') disconnected.add(nc);
      else if (status.type === 'reconnect') disconnected.delete(nc);
    }
  })();
}

/** True when the connection is closed, or lost and not yet reconnected (as far as followConnectionState saw). */
export function knownDisconnected(nc: NatsConnection): boolean {
  return nc.isClosed() || disconnected.has(nc);
}
