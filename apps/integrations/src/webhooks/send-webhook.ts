import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { hostOf, refusedAddress } from './target-policy';
import type { WebhookHeaders } from '@meter/signing';

/** A delivery attempt's outcome: the receiver's status, or why none came. */
export type AttemptOutcome = { status: number } | { error: string };

/** The name resolution of one connection, refusing addresses the policy forbids: the check happens at connect time. */
function guardedLookup(protocol: string, allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 4);
      const refused = addresses.map((a) => refusedAddress(a.address, protocol, allowPrivate)).find(Boolean);
      if (refused) return callback(Object.assign(new Error(`refused: ${refused}`), { code: 'EWEBHOOKTARGET' }), '', 4);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/**
 * POSTs one signed delivery and waits at most `timeoutMs` for the answer
 * (headers and body). Redirects are not followed: only a 2xx delivers.
 */
export function postWebhook(
  target: string,
  headers: WebhookHeaders,
  body: string,
  options: { allowPrivate: boolean; timeoutMs: number; signal?: AbortSignal },
): Promise<AttemptOutcome> {
  const url = new URL(target);
  const host = hostOf(url);
  if (isIP(host)) {
    const refused = refusedAddress(host, url.protocol, options.allowPrivate);
    if (refused) return Promise.resolve({ error: `refused: ${refused}` });
  } else if (url.protocol === 'http:' && !options.allowPrivate) {
    return Promise.resolve({ error: 'refused: http is not allowed: use https' });
  }
  const signal = options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]) : AbortSignal.timeout(options.timeoutMs);
  const requestOptions: RequestOptions = {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'meter-webhooks/1' },
    lookup: guardedLookup(url.protocol, options.allowPrivate),
    signal,
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const req = send(url, requestOptions, (res) => {
      // The body is read (and dropped) so the answer counts only once complete, within the time allowed.
      res.on('data', () => undefined);
      res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
      res.on('error', (error) => resolve({ error: describe(error, signal) }));
    });
    req.on('error', (error) => resolve({ error: describe(error, signal) }));
    req.end(body);
  });
}

function describe(error: Error, signal: AbortSignal): string {
  if (signal.aborted) return signal.reason instanceof Error && signal.reason.name === 'TimeoutError' ? 'no answer within the time allowed' : 'stopped';
  return error.message.slice(0, 300);
}
