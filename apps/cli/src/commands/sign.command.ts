import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { signRequest } from '@meter/signing';
import { action, UsageError } from '../usage';

/** The options `call` and `sign` share: what to sign and with which credential. */
export interface SigningOptions {
  request?: string;
  data?: string;
  accessKey?: string;
  secretKey?: string;
}

/**
 * Adds the shared options. Their values are taken as given even when they
 * begin with `-` (a secret key may): `--secret-key -abc` and `--secret-key=-abc` alike.
 */
export function withSigningOptions(command: Command): Command {
  return command
    .option('-X, --request <method>', 'HTTP method (default GET, or POST with -d)')
    .option('-d, --data <body>', 'request body as given, or @FILE for the bytes of a file')
    .option('--access-key <key>', 'access key (default METER_ACCESS_KEY)')
    .option('--secret-key <secret>', 'secret key (default METER_SECRET_KEY)')
    .argument('<url>', 'absolute URL of the gateway request');
}

export interface SigningInput {
  method: string;
  url: URL;
  /** What goes on the request line and into the signature: path and query exactly as sent. */
  target: string;
  body?: Buffer;
  accessKey: string;
  secretKey?: string;
}

export function signingInput(rawUrl: string, options: SigningOptions, env: NodeJS.ProcessEnv = process.env): SigningInput {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new UsageError(`not an absolute URL: ${rawUrl}`);
  }
  const accessKey = options.accessKey ?? env.METER_ACCESS_KEY;
  const secretKey = options.secretKey ?? env.METER_SECRET_KEY;
  if (!accessKey) throw new UsageError('an access key is required: --access-key or METER_ACCESS_KEY');
  if (!accessKey.startsWith('pk_live_') && !secretKey) throw new UsageError('a secret key is required: --secret-key or METER_SECRET_KEY');
  const body = options.data === undefined ? undefined : readBody(options.data);
  const method = (options.request ?? (body ? 'POST' : 'GET')).toUpperCase();
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

export const signCommand = () =>
  withSigningOptions(new Command('sign'))
    .description('print the SVC-HMAC Authorization header for a gateway request')
    .option('--timestamp <unix-seconds>', 'sign for this time instead of now')
    .addHelpText('after', '\nThe keys default to METER_ACCESS_KEY / METER_SECRET_KEY. Send exactly the signed body bytes, within 300 s.')
    .action(
      action(async (rawUrl: string, options: SigningOptions & { timestamp?: string }) => {
        const input = signingInput(rawUrl, options);
        let timestamp: number | undefined;
        if (options.timestamp !== undefined) {
          if (!/^\d{1,12}$/.test(options.timestamp)) throw new UsageError('--timestamp must be Unix seconds');
          timestamp = Number(options.timestamp);
        }
        try {
          const { authorization } = signRequest({ ...input, timestamp });
          console.log(`Authorization: ${authorization}`);
        } catch (error) {
          throw new UsageError(error instanceof Error ? error.message : String(error));
        }
      }),
    );
