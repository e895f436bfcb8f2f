/** An http(s) URL with a host, as object storage endpoints are (MinIO and local gateways use http). */
export function isServiceUrl(value: string): boolean {
  if (/\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** A service URL with no user name, password or query: nothing in it can be a credential. */
export function isPlainServiceUrl(value: string): boolean {
  if (!isServiceUrl(value)) return false;
  const url = new URL(value);
  return url.username === '' && url.password === '' && url.search === '';
}

const CONNECTION_KEY = /^[A-Za-z][A-Za-z0-9]*$/;

/**
 * Azure accepts either a URL (an account or shared-access signature URL)
 * or a connection string `Key=Value;Key=Value[;]`
 * (`DefaultEndpointsProtocol=https;AccountName=...;AccountKey=...`). Spec
 * 2.7 calls the field a URL, so a connection string counts only when it is
 * well formed, names an account or an endpoint, and every `*Endpoint`
 * value and the protocol are themselves valid.
 */
export function isConnectionString(value: string): boolean {
  if (isServiceUrl(value)) return true;
  const segments = value.split(';');
  if (segments[segments.length - 1] === '') segments.pop();
  if (segments.length === 0) return false;
  const keys = new Set<string>();
  for (const segment of segments) {
    const equals = segment.indexOf('=');
    if (equals <= 0) return false;
    const key = segment.slice(0, equals);
    // Values keep any further "=": base64 account keys and SAS tokens contain them.
    const part = segment.slice(equals + 1);
    const lower = key.toLowerCase();
    if (!CONNECTION_KEY.test(key) || part === '' || keys.has(lower)) return false;
    keys.add(lower);
    if (lower.endsWith('endpoint') && !isServiceUrl(part)) return false;
    if (lower === 'defaultendpointsprotocol' && part !== 'https' && part !== 'http') return false;
  }
  return keys.has('accountname') || [...keys].some((key) => key.endsWith('endpoint'));
}
