/** A request target split into the PATH and QUERY lines of the signing string. */
export interface RequestTarget {
  /** Everything before the first `?`, exactly as received. */
  path: string;
  /** Everything after the first `?`, exactly as received; `''` when there is none or it is empty. */
  query: string;
}

/**
 * Splits a raw request target (`/a/b?x=1&y=%2C`) at its first `?`.
 * Nothing is decoded, re-encoded, sorted or trimmed: the signature covers the
 * bytes as they travel on the wire. `/x` and `/x?` both give query `''`.
 * Never throws.
 */
export function splitTarget(target: string): RequestTarget {
  const text = String(target);
  const mark = text.indexOf('?');
  if (mark === -1) return { path: text, query: '' };
  return { path: text.slice(0, mark), query: text.slice(mark + 1) };
}
