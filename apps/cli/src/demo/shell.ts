/** One shell word, safe to paste into sh/bash/zsh: single quotes, with ' written as '\''. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A curl command for a signed gateway request, one header per line. */
export function curlCommand(input: { url: string; method: string; headers: Record<string, string>; body?: string }): string {
  const parts = [`curl -sS${input.method === 'GET' ? '' : ` -X ${input.method}`} ${shellQuote(input.url)}`];
  for (const [name, value] of Object.entries(input.headers)) parts.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  if (input.body !== undefined) parts.push(`--data-raw ${shellQuote(input.body)}`);
  return parts.join(' \\\n  ');
}

/**
 * `npm run cli -- call` for a GET: it signs afresh each time, so it keeps working after the 300 s of a printed header.
 * The keys go as `--name=value`: a secret key may begin with `-`.
 */
export function cliCallCommand(input: { url: string; accessKey: string; secretKey: string }): string {
  return ['npm run cli -- call', shellQuote(`--access-key=${input.accessKey}`), shellQuote(`--secret-key=${input.secretKey}`), shellQuote(input.url)].join(
    ' \\\n  ',
  );
}

/** `export METER_ACCESS_KEY=… METER_SECRET_KEY=…`, for `npm run cli -- call` and the SDK. */
export function exportKeysCommand(input: { accessKey: string; secretKey: string }): string {
  return `export ${shellQuote(`METER_ACCESS_KEY=${input.accessKey}`)} ${shellQuote(`METER_SECRET_KEY=${input.secretKey}`)}`;
}
