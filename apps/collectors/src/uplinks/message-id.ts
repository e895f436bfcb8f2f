import { createHash } from 'node:crypto';

/**
 * `Nats-Msg-Id` of a message: a hash of where it goes and what it says, so
 * the same uplink sent again (an MQTT resend after a lost PUBACK, an HTTP
 * retry after a 503) within JetStream's duplicate window is stored once.
 */
export function messageId(...parts: (string | Uint8Array)[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\u0000');
  return hash.digest('base64url');
}
