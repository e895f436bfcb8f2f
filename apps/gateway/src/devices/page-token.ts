import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Opaque `next_page_token` of the device list: the last id of the page and
 * the organization, MACed with keys the gateway holds. A token edited by
 * hand or issued to another organization fails verification (contract 5: 400).
 * Pure: the keys are passed in (first signs, all verify, so keys can rotate).
 */
const CONTEXT = 'meter/devices-page-token/v1';

export function signPageToken(keys: readonly Uint8Array[], orgId: string, afterId: number): string {
  const payload = Buffer.from(JSON.stringify({ o: orgId, a: afterId })).toString('base64url');
  return `${payload}.${mac(keys[0], payload)}`;
}

/** The id to continue after, or undefined when the token is not one we issued to this organization. */
export function verifyPageToken(keys: readonly Uint8Array[], orgId: string, token: string): number | undefined {
  const match = /^([A-Za-z0-9_-]{1,400})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return undefined;
  const [, payload, tag] = match;
  const given = Buffer.from(tag, 'base64url');
  if (!keys.some((key) => timingSafeEqual(Buffer.from(mac(key, payload), 'base64url'), given))) return undefined;
  try {
    const decoded: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const { o, a } = decoded as { o?: unknown; a?: unknown };
    return o === orgId && typeof a === 'number' && Number.isSafeInteger(a) && a > 0 ? a : undefined;
  } catch {
    return undefined;
  }
}

function mac(key: Uint8Array, payload: string): string {
  return createHmac('sha256', key).update(`${CONTEXT}\n${payload}`).digest('base64url');
}
