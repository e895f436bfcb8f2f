/**
 * Database errors worth retrying: connection loss, serialization failures
 * and deadlocks, lack of resources, an administrator's shutdown. Anything
 * else is about the data and would fail again.
 */
export function isTransientDatabaseError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) return true; // no SQLSTATE: the connection, not the data
  return ['08', '40', '53', '57', '58'].includes(code.slice(0, 2)) || code === '55P03' || code === '55006';
}

/** Redelivery delay after a transient failure: doubling from 250 ms, at most 30 s. */
export function retryDelayMs(deliveryCount: number): number {
  return Math.min(30_000, 250 * 2 ** Math.min(7, Math.max(0, deliveryCount - 1)));
}
