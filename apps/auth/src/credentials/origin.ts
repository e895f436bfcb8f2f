/** What `allowed_origins` takes, as its 400 says. */
const EXPECTED = 'must be an exact origin such as https://portal.example.org (scheme, host and port, no path)';

/**
 * An entry of `allowed_origins`: exactly the serialised origin a browser
 * sends in `Origin` (lower-case host, no default port, no path or trailing
 * slash), so the gateway compares strings. A near miss names the form to use.
 */
export function checkOrigin(text: string): { ok: true; origin: string } | { ok: false; message: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: EXPECTED };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, message: `${EXPECTED}; http or https only` };
  if (url.origin === text) return { ok: true, origin: text };
  const bare = url.pathname === '/' && url.search === '' && url.hash === '' && url.username === '' && url.password === '';
  return { ok: false, message: bare ? `${EXPECTED}; write it ${url.origin}` : EXPECTED };
}
