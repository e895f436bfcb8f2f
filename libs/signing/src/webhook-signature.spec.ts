import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { signWebhook, verifyWebhook } from './webhook-signature';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const OTHER = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;

describe('signWebhook', () => {
  it('matches the Standard Webhooks reference implementation', () => {
    const now = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ type: 'alert.raised', timestamp: '2026-11-21T10:00:00.000Z', data: { code: 'LEAK' } });
    const headers = signWebhook([SECRET], 'msg_1', now, body);
    expect(headers['webhook-signature']).toBe(new Webhook(SECRET).sign('msg_1', new Date(now * 1000), body));
    expect(new Webhook(SECRET).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('signs with every secret during a rotation, and each verifies', () => {
    const now = Math.floor(Date.now() / 1000);
    const headers = signWebhook([OTHER, SECRET], 'msg_2', now, '{}');
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const secret of [OTHER, SECRET]) expect(() => new Webhook(secret).verify('{}', { ...headers })).not.toThrow();
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify('{}', { ...headers })).toThrow();
  });

  it('a changed body no longer verifies', () => {
    const now = Math.floor(Date.now() / 1000);
    const headers = signWebhook([SECRET], 'msg_3', now, '{"a":1}');
    expect(() => new Webhook(SECRET).verify('{"a":2}', { ...headers })).toThrow();
  });
});

describe('verifyWebhook', () => {
  const now = 1_800_000_000;
  const body = '{"type":"alert.raised"}';
  it('accepts the reference implementation signature', () => {
    const headers = { 'webhook-id': 'm', 'webhook-timestamp': String(now), 'webhook-signature': new Webhook(SECRET).sign('m', new Date(now * 1000), body) };
    expect(verifyWebhook(SECRET, headers, body, { nowSeconds: now })).toBe(true);
  });

  it.each([
    ['another secret', OTHER, body, now],
    ['another body', SECRET, '{}', now],
    ['a timestamp over 5 minutes old', SECRET, body, now + 301],
  ])('refuses %s', (_name, secret, text, at) => {
    const headers = signWebhook([SECRET], 'm', now, body);
    expect(verifyWebhook(secret, headers, text, { nowSeconds: at })).toBe(false);
  });

  it('refuses missing or malformed headers', () => {
    expect(verifyWebhook(SECRET, {}, body)).toBe(false);
    expect(verifyWebhook(SECRET, { 'webhook-id': 'm', 'webhook-timestamp': 'soon', 'webhook-signature': 'v1,x' }, body)).toBe(false);
  });
});
