import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { signRequest } from '@meter/signing';
import { UsageError, type Command } from '../command';

/** Options shared by `call` and `sign`: what to sign and with which credential. */
export const SIGNING_OPTIONS = {
  request: { type: 'string', short: 'X' },
  data: { type: 'string', short: 'd' },
  'access-key': { type: 'string' },
  'secret-key': { type: 'string' },
} as const;

export interface SigningInput {
  method: string;
  url: URL;
  /** What goes on the request line and into the signature: path and query exactly as sent. */
  target: string;
  body?: Buffer;
  accessKey: string;
  secretKey?: string;
}

export function signingInput(
  values: { request?: string; data?: string; 'access-key'?: string; 'secret-key'?: string },
  positionals: string[],
  env: NodeJS.ProcessEnv = process.env,
): SigningInput {
  if (positionals.length !== 1) throw new UsageError('give exactly one URL');
  let url: URL;
  try {
    url = new URL(positionals[0]);
  } catch {
    throw new UsageError(`not an absolute URL: ${positionals[0]}`);
  }
  const accessKey = values['access-key'] ?? env.METER_ACCESS_KEY;
  const secretKey = values['secret-key'] ?? env.METER_SECRET_KEY;
  if (!accessKey) throw new UsageError('an access key is required: --access-key or METER_ACCESS_KEY');
  if (!accessKey.startsWith('pk_live_') && !secretKey) throw new UsageError('a secret key is required: --secret-key or METER_SECRET_KEY');
  const body = values.data === undefined ? undefined : readBody(values.data);
  const method = (values.request ?? (body ? 'POST' : 'GET')).toUpperCase();
  // The URL class has already percent-encoded what fetch would, so these are the bytes sent.
  return { method, url, target: url.pathname + url.search, body, accessKey, secretKey };
}

/** `-d '{"a":1}'` sends the text, `-d @file.json` the file's bytes, like curl --data-binary. */
function readBody(data: string): Buffer {
  if (!data.startsWith('@')) return Buffer.from(data, 'utf8');
  try {
    return readFileSync(data.slice(1));
  } catch (error) {
    throw new UsageError(`cannot read ${data.slice(1)}: ${(error as Error).message}`);
  }
}

export const signCommand: Command = {
  name: 'sign',
  summary: 'print the SVC-HMAC Authorization header for a gateway request',
  usage:
    '[-X METHOD] [-d BODY|@FILE] [--timestamp UNIX_SECONDS] [--access-key KEY] [--secret-key SECRET] URL\n\n' +
    'The keys default to METER_ACCESS_KEY / METER_SECRET_KEY. Send exactly the signed body bytes, within 300 s.',
  async run(args) {
    const { values, positionals } = parseArgs({ args, options: { ...SIGNING_OPTIONS, timestamp: { type: 'string' } }, allowPositionals: true });
    const input = signingInput(values, positionals);
    let timestamp: number | undefined;
    if (values.timestamp !== undefined) {
      if (!/^\d{1,12}$/.test(values.timestamp)) throw new UsageError('--timestamp must be Unix seconds');
      timestamp = Number(values.timestamp);
    }
    try {
      const { authorization } = signRequest({ ...input, timestamp });
      console.log(`Authorization: ${authorization}`);
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error));
    }
  },
};
