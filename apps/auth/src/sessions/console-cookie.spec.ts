import { describe, expect, it } from 'vitest';
import { clearedSessionCookie, csrfAdmits, csrfTokenFor, sessionCookie, sessionTokenOf } from './console-cookie';

describe('console session cookie', () => {
  it('is HttpOnly and SameSite=Strict, Secure when asked', () => {
    expect(sessionCookie('mst_abc', 3600, false)).toBe('meter_session=mst_abc; Path=/; Max-Age=3600; HttpOnly; SameSite=Strict');
    expect(sessionCookie('mst_abc', 3600, true)).toMatch(/; Secure$/);
    expect(clearedSessionCookie(false)).toMatch(/^meter_session=; Path=\/; Max-Age=0; HttpOnly/);
  });

  it('is found among other cookies, and an empty one is none', () => {
    expect(sessionTokenOf('a=1; meter_session=mst_x; b=2')).toBe('mst_x');
    expect(sessionTokenOf('meter_session_other=1')).toBeUndefined();
    expect(sessionTokenOf('meter_session=')).toBeUndefined();
    expect(sessionTokenOf(undefined)).toBeUndefined();
  });

  it('admits safe methods without a CSRF token and others only with the right one', () => {
    const token = 'mst_session';
    expect(csrfAdmits('GET', token, undefined)).toBe(true);
    expect(csrfAdmits('POST', token, undefined)).toBe(false);
    expect(csrfAdmits('DELETE', token, csrfTokenFor('mst_other'))).toBe(false);
    expect(csrfAdmits('PATCH', token, [csrfTokenFor(token)])).toBe(false);
    expect(csrfAdmits('POST', token, csrfTokenFor(token))).toBe(true);
    expect(csrfTokenFor(token)).not.toContain(token);
  });
});
