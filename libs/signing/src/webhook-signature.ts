import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signatures (Standard Webhooks 1.0), as the platform signs its
 * deliveries and as a receiver checks them: `v1,` + base64 HMAC-SHA256,
 * keyed with the base64-decoded part of a `whsec_` secret, over
 * `<webhook-id>.<webhook-timestamp>.<body>`.
 */

/** The headers of one delivery attempt. */
export interface WebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** Signs a delivery; several secrets (during a rotation) give several signatures, space-separated. `timestamp` is Unix seconds. */
export function signWebhook(secrets: readonly string[], id: string, timestamp: number, body: string): WebhookHeaders {
  const signatures = secrets.map((secret) => `v1,${webhookHmac(secret, id, String(timestamp), body).toString('base64')}`);
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signatures.join(' ') };
}

/**
 * True when one of the signatures was made with `secret` over exactly this
 * body, and the timestamp is within `toleranceSeconds` of `nowSeconds`
 * (a replayed old delivery fails). Compares in constant time.
 */
export function verifyWebhook(
  secret: string,
  headers: Partial<Record<keyof WebhookHeaders, string | string[] | undefined>>,
  body: string,
  options: { toleranceSeconds?: number; nowSeconds?: number } = {},
): boolean {
  const [id, timestamp, signature] = [headers['webhook-id'], headers['webhook-timestamp'], headers['webhook-signature']];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signature !== 'string' || !/^\d{1,12}$/.test(timestamp)) return false;
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? 300)) return false;
  const expected = webhookHmac(secret, id, timestamp, body);
  return signature.split(' ').some((entry) => {
    const [version, value] = entry.split(',', 2);
    if (version !== 'v1' || value === undefined) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

function webhookHmac(secret: string, id: string, timestamp: string, body: string): Buffer {
  if (!secret.startsWith('whsec_')) throw new RangeError('a webhook secret starts with whsec_');
  return createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
    .update(`${id}.${timestamp}.${body}`)
    .digest();
}
