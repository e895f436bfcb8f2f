import { constantTimeEqual } from '@meter/crypto';
import { createHash } from 'node:crypto';

/** The console's session cookie: the same opaque session token POST /login issues, never readable by scripts. */
export const SESSION_COOKIE = 'meter_session';

/** The header a state-changing request authenticated by the cookie carries its CSRF token in. */
export const CSRF_HEADER = 'x-csrf-token';

/** Methods that change nothing, so a cookie alone may authenticate them. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `Set-Cookie` value starting a session: HttpOnly, SameSite=Strict, Secure unless plain development HTTP. */
export function sessionCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  return [`${SESSION_COOKIE}=${token}`, 'Path=/', `Max-Age=${maxAgeSeconds}`, 'HttpOnly', 'SameSite=Strict', ...(secure ? ['Secure'] : [])].join('; ');
}

/** `Set-Cookie` value that makes the browser forget the session cookie. */
export function clearedSessionCookie(secure: boolean): string {
  return sessionCookie('', 0, secure);
}

/** The session token in a `Cookie` header, if any (RFC 6265 pairs; the first of a repeated name wins). */
export function sessionTokenOf(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  for (const pair of cookieHeader.split(';')) {
    const at = pair.indexOf('=');
    if (at < 0 || pair.slice(0, at).trim() !== SESSION_COOKIE) continue;
    const value = pair.slice(at + 1).trim();
    return value === '' ? undefined : value;
  }
  return undefined;
}

/**
 * The CSRF token of a session: derived from its token (synchronizer-style, nothing more to store).
 * A cross-site page can neither read the HttpOnly cookie nor GET /session's answer, so it cannot make one.
 */
export function csrfTokenFor(sessionToken: string): string {
  return createHash('sha256').update(`meter-console-csrf\0${sessionToken}`).digest('base64url');
}

/** Whether a request authenticated by the cookie may go ahead: safe methods always, others with the session's CSRF token. */
export function csrfAdmits(method: string, sessionToken: string, headerValue: string | string[] | undefined): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return true;
  if (typeof headerValue !== 'string') return false;
  return constantTimeEqual(headerValue, csrfTokenFor(sessionToken));
}
