import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { hostOf, refusedAddress } from './target-policy';
import { WEBHOOK_RESPONSE_BODY_BYTES } from '@meter/contracts';
import type { WebhookHeaders } from '@meter/signing';

/** A delivery attempt's outcome: the receiver's status and the first KiB of its body, or why none came. */
export type AttemptOutcome = { status: number; body: string } | { error: string };

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
  const requestOptions: RequestOptions = {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'meter-webhooks/1' },
    lookup: guardedLookup(url.protocol, options.allowPrivate),
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: AttemptOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      options.signal?.removeEventListener('abort', stop);
      resolve(outcome);
    };
    // The deadline is a timer held here and cleared on every outcome, and it destroys the socket: a
    // signal from AbortSignal.timeout can be garbage-collected before it fires (Node 20) and hold the slot forever.
    const giveUp = (outcome: AttemptOutcome) => {
      finish(outcome);
      req.destroy();
    };
    const stop = () => giveUp({ error: 'stopped' });
    const req = send(url, requestOptions, (res) => {
      // The body is read to its end so the answer counts only once complete, within the time allowed; its first KiB is kept.
      const kept: Buffer[] = [];
      let keptBytes = 0;
      res.on('data', (chunk: Buffer) => {
        if (keptBytes >= WEBHOOK_RESPONSE_BODY_BYTES) return;
        const part = chunk.subarray(0, WEBHOOK_RESPONSE_BODY_BYTES - keptBytes);
        kept.push(part);
        keptBytes += part.length;
      });
      res.on('end', () => finish({ status: res.statusCode ?? 0, body: answerText(Buffer.concat(kept)) }));
      res.on('error', (error) => finish({ error: error.message.slice(0, 300) }));
      res.on('close', () => finish({ error: 'the connection closed before the answer was complete' }));
    });
    const deadline = setTimeout(() => giveUp({ error: 'no answer within the time allowed' }), options.timeoutMs);
    req.on('error', (error) => finish({ error: error.message.slice(0, 300) }));
    if (options.signal?.aborted) stop();
    else options.signal?.addEventListener('abort', stop, { once: true });
    req.end(body);
  });
}

/** The kept bytes as text: UTF-8, a character cut at the 1 KiB mark and invalid bytes shown as U+FFFD. */
export function answerText(bytes: Buffer): string {
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}
