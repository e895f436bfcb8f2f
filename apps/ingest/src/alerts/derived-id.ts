import { createHash } from 'node:crypto';

/**
 * A UUID (version 8, RFC 9562) derived from a name: the same facts always
 * give the same id, so an episode re-derived by a replay or a rebuild is the
 * same row and the same event, never a second one.
 */
export function derivedUuid(name: string): string {
  const bytes = createHash('sha256').update(`meter/alerts/v1\n${name}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x80;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The id of the episode of `code` on a channel raised at `raisedAt` (epoch ms): at most one such episode exists. */
export function episodeId(orgId: string, deviceId: number, channel: number, code: string, raisedAt: number): string {
  return derivedUuid(`episode\n${orgId}\n${deviceId}\n${channel}\n${code}\n${raisedAt}`);
}
