import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Opaque page tokens: a JSON payload naming the organization and where the
 * next page starts, MACed with keys the gateway holds under a context of its
 * own per list. A token edited by hand, issued to another organization or
 * for another list fails verification (a 400). Pure: the keys are
 * passed in (first signs, all verify, so keys can rotate).
 */
export function signToken(keys: readonly Uint8Array[], context: string, payload: Record<string, unknown>): string {
  const encoded = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${encoded}.${mac(keys[0], context, encoded)}`;
}

/** The payload of a token this gateway signed under `context`, or undefined. */
export function verifyToken(keys: readonly Uint8Array[], context: string, token: string): Record<string, unknown> | undefined {
  const match = /^([A-Za-z0-9_-]{1,400})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return undefined;
  const [, payload, tag] = match;
  const given = Buffer.from(tag, 'base64url');
  if (!keys.some((key) => timingSafeEqual(Buffer.from(mac(key, context, payload), 'base64url'), given))) return undefined;
  try {
    const decoded: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return typeof decoded === 'object' && decoded !== null && !Array.isArray(decoded) ? (decoded as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const DEVICES = 'meter/devices-page-token/v1';

/** The device list's `next_page_token`: the last id of the page and the organization. */
export function signPageToken(keys: readonly Uint8Array[], orgId: string, afterId: number): string {
  return signToken(keys, DEVICES, { o: orgId, a: afterId });
}

/** The id to continue after, or undefined when the token is not one we issued to this organization. */
export function verifyPageToken(keys: readonly Uint8Array[], orgId: string, token: string): number | undefined {
  const payload = verifyToken(keys, DEVICES, token);
  const a = payload?.a;
  return payload?.o === orgId && typeof a === 'number' && Number.isSafeInteger(a) && a > 0 ? a : undefined;
}

function mac(key: Uint8Array, context: string, payload: string): string {
  return createHmac('sha256', key).update(`${context}\n${payload}`).digest('base64url');
}
