import { Command } from 'commander';
import { signRequest } from '@meter/signing';
import { action, integerOption, UsageError } from '../usage';
import { signingInput, withSigningOptions, type SigningOptions } from './sign.command';

const MAX_WAIT_SECONDS = 120;

/** Seconds to wait from a `Retry-After` value (seconds or an HTTP date); undefined when absent or unreadable. */
function retryAfterSeconds(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

function parseHeader(line: string): [string, string] {
  const colon = line.indexOf(':');
  if (colon <= 0) throw new UsageError(`-H needs 'Name: value', got: ${line}`);
  return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
}

interface CallOptions extends SigningOptions {
  header: string[];
  include?: boolean;
  attempts: string;
}

export const callCommand = () =>
  withSigningOptions(new Command('call'))
    .description('send a signed request to the gateway (like curl), waiting out 429 Retry-After')
    .option('-H, --header <line>', "extra header 'Name: value' (repeatable)", (line: string, all: string[]) => [...all, line], [])
    .option('-i, --include', 'print the status line and headers before the body')
    .option('--attempts <n>', 'tries in all when answered 429 (1..10)', '3')
    .addHelpText(
      'after',
      '\nThe keys default to METER_ACCESS_KEY / METER_SECRET_KEY. -d sends the bytes as given (Content-Type application/json\n' +
        'unless -H sets one). On 429 it sleeps Retry-After (at most 120 s) and signs again, up to --attempts.\n' +
        'Prints the body (with -i, the status line and headers first); exits 1 for a 4xx/5xx answer.',
    )
    .action(
      action(async (rawUrl: string, options: CallOptions) => {
        const input = signingInput(rawUrl, options);
        const attempts = integerOption(options.attempts, '--attempts', 1, 10);
        const extra = new Headers(options.header.map(parseHeader));
        if (input.body && !extra.has('content-type')) extra.set('content-type', 'application/json');

        for (let attempt = 1; ; attempt++) {
          // Signed again for each attempt: the timestamp must be fresh.
          const { authorization } = signRequest(input);
          const headers = new Headers(extra);
          headers.set('authorization', authorization);
          const response = await fetch(input.url, { method: input.method, headers, body: input.body, redirect: 'manual' });
          const wait = response.status === 429 ? retryAfterSeconds(response.headers.get('retry-after')) : undefined;
          if (wait !== undefined && attempt < attempts && wait <= MAX_WAIT_SECONDS) {
            await response.arrayBuffer();
            console.error(`429 rate limited; retrying in ${wait} s (attempt ${attempt + 1} of ${attempts})`);
            await new Promise((resolve) => setTimeout(resolve, wait * 1000));
            continue;
          }
          const body = await response.text();
          if (options.include) {
            const lines = [`HTTP ${response.status} ${response.statusText}`];
            response.headers.forEach((value, name) => lines.push(`${name}: ${value}`));
            console.log(`${lines.join('\n')}\n`);
          } else {
            console.error(`HTTP ${response.status} ${response.statusText}`);
          }
          process.stdout.write(body.endsWith('\n') || body === '' ? body : `${body}\n`);
          if (response.status >= 400) throw new Error(`the gateway answered HTTP ${response.status}`);
          return;
        }
      }),
    );
