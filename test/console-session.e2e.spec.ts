import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '@meter/crypto';
import { call, newOrg, startIsolatedAuth, stopIsolatedAuth, type IsolatedAuth } from './auth-support';

/** The admin console's cookie session on the built auth process (contract section 11, docs/console.md). */
describe('console session: cookie, CSRF, sign-out and expiry', () => {
  let stack: IsolatedAuth;
  let org: Awaited<ReturnType<typeof newOrg>>;

  beforeAll(async () => {
    stack = await startIsolatedAuth();
    org = await newOrg(stack.db, { fastHash: true });
  });
  afterAll(() => stopIsolatedAuth(stack ?? {}));

  const signIn = async () => {
    const response = await call(stack.auth.base, 'POST', '/session', { body: { email: org.email, password: org.password } });
    expect(response.status).toBe(200);
    const setCookie = response.headers.get('set-cookie')!;
    const token = /^meter_session=([^;]+);/.exec(setCookie)![1];
    return { setCookie, cookie: `meter_session=${token}`, token, csrf: response.body.csrf_token as string, body: response.body };
  };

  it('sets an HttpOnly, SameSite=Strict cookie holding a token stored only hashed, and no token in the body', async () => {
    const { setCookie, token, body } = await signIn();
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Strict/);
    expect(setCookie).toMatch(/; Path=\//);
    expect(setCookie).toMatch(/; Max-Age=3600/);
    // Plain HTTP in development: the browser would drop a Secure cookie.
    expect(setCookie).not.toMatch(/Secure/);
    expect(body).toEqual({ email: org.email, org_id: org.orgId, csrf_token: expect.any(String) });
    expect(JSON.stringify(body)).not.toContain(token);
    const rows = (await stack.db.query('SELECT token_hash FROM auth.sessions WHERE token_hash = $1', [sha256Hex(token)])) as unknown[];
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(await stack.db.query('SELECT * FROM auth.sessions'))).not.toContain(token);
  });

  it('answers a wrong password as POST /login does, setting no cookie', async () => {
    const response = await call(stack.auth.base, 'POST', '/session', { body: { email: org.email, password: 'wrong password' } });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('invalid_credentials');
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('admits reads with the cookie, and changes only with its CSRF token, whatever the Origin', async () => {
    const { cookie, csrf } = await signIn();
    const list = await call(stack.auth.base, 'GET', '/org-api-credentials', { headers: { cookie } });
    expect(list.status).toBe(200);
    const current = await call(stack.auth.base, 'GET', '/session', { headers: { cookie } });
    expect(current.body).toEqual({ email: org.email, org_id: org.orgId, csrf_token: csrf });

    const body = { name: 'From the console', type: 'secret', scopes: ['meter:consumption:read'] };
    const attempts: Record<string, string>[] = [
      { cookie },
      { cookie, origin: stack.auth.base },
      { cookie, 'x-csrf-token': 'forged' },
      { cookie, 'x-csrf-token': '' },
    ];
    for (const headers of attempts) {
      const refused = await call(stack.auth.base, 'POST', '/org-api-credentials', { headers, body });
      expect(refused.status, JSON.stringify(headers)).toBe(403);
      expect(refused.body.code).toBe('csrf_failed');
    }
    expect((await call(stack.auth.base, 'DELETE', '/session', { headers: { cookie } })).status).toBe(403);
    const created = await call(stack.auth.base, 'POST', '/org-api-credentials', { headers: { cookie, 'x-csrf-token': csrf }, body });
    expect(created.status).toBe(201);
    // Another session's CSRF token does not do.
    const other = await signIn();
    const crossed = await call(stack.auth.base, 'DELETE', `/org-api-credentials/${created.body.id}`, { headers: { cookie, 'x-csrf-token': other.csrf } });
    expect(crossed.status).toBe(403);
  });

  it('leaves the Bearer API as it was: a token needs no CSRF token', async () => {
    const login = await call(stack.auth.base, 'POST', '/login', { body: { email: org.email, password: org.password } });
    const created = await call(stack.auth.base, 'POST', '/org-api-credentials', {
      token: login.body.access_token,
      body: { name: 'Bearer', type: 'secret', scopes: ['meter:consumption:read'] },
    });
    expect(created.status).toBe(201);
  });

  it('signs out: the session ends and the cookie is cleared', async () => {
    const { cookie, csrf } = await signIn();
    const out = await call(stack.auth.base, 'DELETE', '/session', { headers: { cookie, 'x-csrf-token': csrf } });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^meter_session=; Path=\/; Max-Age=0; HttpOnly; SameSite=Strict/);
    const after = await call(stack.auth.base, 'GET', '/session', { headers: { cookie } });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('invalid_session');
  });

  it('refuses an expired session with 401 invalid_session', async () => {
    const { cookie, token } = await signIn();
    await stack.db.query("UPDATE auth.sessions SET expires_at = now() - interval '1 second' WHERE token_hash = $1", [sha256Hex(token)]);
    const response = await call(stack.auth.base, 'GET', '/org-api-credentials', { headers: { cookie } });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('invalid_session');
  });
});
