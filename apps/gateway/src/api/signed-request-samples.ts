import { authorizationHeader, bodySha256Hex, sign, splitTarget } from '@meter/signing';
import { EXAMPLE_NOW } from './examples';

/**
 * Keys of a made-up credential, in the real format (32 and 43 characters of
 * base64url), marked EXAMPLE so no secret scanner mistakes them for live ones.
 */
const EXAMPLE_ACCESS_KEY = 'sk_live_EXAMPLE_d3kQ9mZ2vT7xR4pW8nB1cF6h';
const EXAMPLE_SECRET_KEY = 'EXAMPLE-secret-T4nqXv9Lw2Hc7Rk1Pz8Ym3Bd6Fs0';
const EXAMPLE_TIMESTAMP = EXAMPLE_NOW / 1000;

/**
 * `sign METHOD TARGET [BODY]` prints the Authorization value with bash and
 * openssl alone. TIMESTAMP may be set to sign for a given second (tests do).
 */
const CURL_SIGN_FUNCTION = [
  'sign() { # METHOD TARGET [BODY]',
  "  local method=$1 target=$2 body=${3-} path query='' timestamp hash signature",
  '  path=${target%%\\?*}',
  '  [[ $target == *\\?* ]] && query=${target#*\\?}',
  '  timestamp=${TIMESTAMP:-$(date +%s)}',
  "  hash=$(printf '%s' \"$body\" | openssl dgst -sha256 -hex | sed 's/^.* //')",
  '  signature=$(printf \'%s\\n%s\\n%s\\n%s\\n%s\' "$method" "$path" "$query" "$hash" "$timestamp" |',
  '    openssl dgst -sha256 -hmac "$METER_SECRET_KEY" -hex | sed \'s/^.* //\')',
  '  printf \'SVC-HMAC access_key=%s signature=%s timestamp=%s\' "$METER_ACCESS_KEY" "$signature" "$timestamp"',
  '}',
].join('\n');

const CURL = [
  '```sh',
  'export METER_ACCESS_KEY=sk_live_…  METER_SECRET_KEY=…  BASE_URL=http://localhost:8080',
  '',
  CURL_SIGN_FUNCTION,
  '',
  "TARGET='/meter/v1/projection?device_id=1042'",
  'curl -sS "$BASE_URL$TARGET" -H "Authorization: $(sign GET "$TARGET")"',
  '',
  `BODY='{"devices":[{"device_id":1042}]}'   # sign and send the same bytes`,
  'curl -sS "$BASE_URL/meter/v1/dashboard" -H \'Content-Type: application/json\' \\',
  '  -H "Authorization: $(sign POST /meter/v1/dashboard "$BODY")" --data-raw "$BODY"',
  '```',
].join('\n');

/** The SDK's package name, kept out of import-like text: the build rewrites `from '@meter/...'` to relative paths, even in strings. */
const SDK_PACKAGE = '@meter/signing';

const TYPESCRIPT = [
  '```ts',
  `import { signRequest } from '${SDK_PACKAGE}';`,
  '',
  "const url = new URL('/meter/v1/dashboard', process.env.BASE_URL ?? 'http://localhost:8080');",
  'const body = JSON.stringify({ devices: [{ device_id: 1042 }] }); // sign and send the same bytes',
  'const headers = signRequest({',
  '  accessKey: process.env.METER_ACCESS_KEY!, // sk_live_…',
  '  secretKey: process.env.METER_SECRET_KEY!,',
  "  method: 'POST',",
  '  target: url.pathname + url.search, // the request target exactly as sent',
  '  body,',
  '});',
  "const response = await fetch(url, { method: 'POST', body, headers: { ...headers, 'content-type': 'application/json' } });",
  'console.log(response.status, await response.json());',
  '```',
].join('\n');

/** The signing string, signature and header of one request, made by @meter/signing. */
function workedExample(method: string, target: string, body = ''): string {
  const { path, query } = splitTarget(target);
  const { signature } = sign({ secretKey: EXAMPLE_SECRET_KEY, method, target, body, timestamp: EXAMPLE_TIMESTAMP });
  return [
    `With \`access_key\` \`${EXAMPLE_ACCESS_KEY}\`, \`secret_key\` \`${EXAMPLE_SECRET_KEY}\` and timestamp \`${EXAMPLE_TIMESTAMP}\` ` +
      `(${new Date(EXAMPLE_NOW).toISOString()}), \`${method} ${target}\` without a body has the signing string`,
    '',
    '```',
    [method, path, query, bodySha256Hex(body), String(EXAMPLE_TIMESTAMP)].join('\n'),
    '```',
    '',
    'and is sent with',
    '',
    '```',
    `Authorization: ${authorizationHeader({ accessKey: EXAMPLE_ACCESS_KEY, signature, timestamp: EXAMPLE_TIMESTAMP })}`,
    '```',
  ].join('\n');
}

/** The "Signing a request" part of the gateway document's description. */
export const SIGNED_REQUEST_GUIDE = [
  '## Signing a request',
  '',
  'Create a credential with the management API (`POST /org-api-credentials`); its `access_key` and `secret_key` sign every request. ' +
    `The SDK \`${SDK_PACKAGE}\` (libs/signing/README.md) does it in one call; \`npm run cli -- call URL\` signs and sends a request from a shell.`,
  '',
  '### curl',
  '',
  CURL,
  '',
  '### TypeScript',
  '',
  TYPESCRIPT,
  '',
  '### Worked example',
  '',
  workedExample('GET', '/meter/v1/projection?device_id=1042'),
].join('\n');
