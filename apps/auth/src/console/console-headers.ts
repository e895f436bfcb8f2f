/**
 * Headers of every console response (contract section 11): a policy that lets the page load only its
 * own files and call only its own origin, with no inline script and no framing.
 */
export const CONSOLE_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const CONSOLE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONSOLE_CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

/** Vite names assets by their content, so a file under /console/assets/ never changes: cache it for a year. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

/** The page itself is revalidated each time, so a new build is picked up at once. */
export const PAGE_CACHE = 'no-cache';
