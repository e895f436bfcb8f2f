import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '@meter/crypto';
import type { IsolatedInfra, PlatformProcess } from '@meter/testing';
import type { DataSource } from 'typeorm';
import { call, login, newOrg, startIsolatedAuth, stopIsolatedAuth } from './auth-support';

describe('admin sessions on the built auth process', () => {
  let infra: IsolatedInfra;
  let db: DataSource;
  let auth: { process: PlatformProcess; base: string };
  let org: Awaited<ReturnType<typeof newOrg>>;

  beforeAll(async () => {
    ({ infra, db, auth } = await startIsolatedAuth({
      LOGIN_MAX_FAILURES_PER_EMAIL_AND_ADDRESS: '3',
      LOGIN_MAX_FAILURES_PER_ADDRESS: '8',
      LOGIN_MAX_FAILURES_PER_EMAIL: '5',
      LOGIN_MAX_DELAY_SECONDS: '2',
      LOGIN_THROTTLE_WINDOW_SECONDS: '60',
      // The test client stands in for a proxy, so X-Forwarded-For names the address of each attempt.
      TRUSTED_PROXIES: '127.0.0.1/32,::1/128',
    }));
    org = await newOrg(db);
  });
  afterAll(() => stopIsolatedAuth({ infra, db, auth }));

  it('logs in with an opaque token stored only as its hash', async () => {
    const response = await call(auth.base, 'POST', '/login', { body: { email: org.email.toUpperCase(), password: org.password } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ access_token: expect.stringMatching(/^mst_[A-Za-z0-9_-]{43}$/), token_type: 'Bearer', expires_in: 3600 });
    const rows = (await db.query('SELECT token_hash, expires_at - created_at AS ttl FROM auth.sessions')) as { token_hash: string }[];
    expect(rows.map((r) => r.token_hash)).toContain(sha256Hex(response.body.access_token));
    const dump = JSON.stringify(await db.query('SELECT * FROM auth.sessions')) + JSON.stringify(await db.query('SELECT * FROM auth.events'));
    expect(dump).not.toContain(response.body.access_token);
  });

  it('answers an unknown email and a wrong password with the same 401', async () => {
    const unknown = await call(auth.base, 'POST', '/login', { body: { email: 'nobody@example.test', password: 'whatever1' } });
    const wrong = await call(auth.base, 'POST', '/login', { body: { email: org.email, password: 'wrong password' } });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    const strip = (body: Record<string, unknown>) => ({ ...body, request_id: undefined });
    expect(strip(unknown.body)).toEqual(strip(wrong.body));
    expect(unknown.body.code).toBe('invalid_credentials');
    expect(unknown.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect([unknown.headers.get('www-authenticate'), wrong.headers.get('www-authenticate')]).toEqual(['Bearer', 'Bearer']);
    // A successful login resets the email's failure count for the next test.
    await login(auth.base, org.email, org.password);
  });

  it('rejects bad login bodies naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ email: org.email }, 'password'],
      [{ email: org.email, password: 5 }, 'password'],
      [{ email: org.email, password: 'x', admin: true }, 'admin'],
      [[], 'body'],
    ];
    for (const [body, field] of cases) {
      const response = await call(auth.base, 'POST', '/login', { body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.code).toBe('validation_failed');
      expect(response.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    const broken = await call(auth.base, 'POST', '/login', { body: '{"email": ' });
    expect(broken.status).toBe(400);
    expect(broken.body.errors[0].field).toBe('body');
    const huge = await call(auth.base, 'POST', '/login', { body: { email: org.email, password: 'x'.repeat(70 * 1024) } });
    expect(huge.status).toBe(413);
  });

  it('guards routes: missing, malformed, unknown, ended and expired tokens are 401', async () => {
    expect((await call(auth.base, 'POST', '/logout')).body.code).toBe('missing_authorization');
    expect((await call(auth.base, 'POST', '/logout', { headers: { authorization: 'Basic abc' } })).body.code).toBe('malformed_authorization');
    expect((await call(auth.base, 'POST', '/logout', { token: 'mst_unknown' })).body.code).toBe('invalid_session');

    const token = await login(auth.base, org.email, org.password);
    expect((await call(auth.base, 'POST', '/logout', { token })).status).toBe(204);
    const again = await call(auth.base, 'POST', '/logout', { token });
    expect(again.status).toBe(401);
    expect(again.body.code).toBe('invalid_session');

    const expiring = await login(auth.base, org.email, org.password);
    await db.query(`UPDATE auth.sessions SET expires_at = now() - interval '1 second' WHERE token_hash = $1`, [sha256Hex(expiring)]);
    expect((await call(auth.base, 'POST', '/logout', { token: expiring })).body.code).toBe('invalid_session');
  });

  it('records session and logout events without the token', async () => {
    const types = ((await db.query('SELECT type FROM auth.events ORDER BY seq')) as { type: string }[]).map((r) => r.type);
    expect(types).toEqual(expect.arrayContaining(['organization.created', 'admin.created', 'session.started', 'session.ended']));
  });

  const loginFrom = (address: string, email: string, password: string) =>
    call(auth.base, 'POST', '/login', { body: { email, password }, headers: { 'x-forwarded-for': address } });

  it('blocks an address after its failures for an email with 429 and Retry-After, even for the right password; another address still logs in', async () => {
    const victim = await newOrg(db);
    for (let i = 0; i < 3; i++) expect((await loginFrom('198.51.100.10', victim.email, `wrong ${i}`)).status).toBe(401);
    const blocked = await loginFrom('198.51.100.10', victim.email, victim.password);
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('rate_limited');
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Whoever knows the email cannot lock its admin out: the right password from another address works.
    expect((await loginFrom('198.51.100.11', victim.email, victim.password)).status).toBe(200);
    // Another email from the blocked address still works until the address limit.
    const other = await newOrg(db);
    expect((await loginFrom('198.51.100.10', other.email, other.password)).status).toBe(200);
  });

  it('slows down, rather than blocks, guessing at one email from many addresses', async () => {
    // A fast hash, so the next attempt surely comes within the 1 s slot the fifth failure opens.
    const victim = await newOrg(db, { fastHash: true });
    for (let i = 0; i < 5; i++) expect((await loginFrom(`203.0.113.${i}`, victim.email, `wrong ${i}`)).status).toBe(401);
    // Past LOGIN_MAX_FAILURES_PER_EMAIL, every address waits for the next slot, the right password too.
    const slowed = await loginFrom('203.0.113.99', victim.email, victim.password);
    expect(slowed.status).toBe(429);
    const wait = Number(slowed.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, wait * 1000 + 100));
    expect((await loginFrom('203.0.113.99', victim.email, victim.password)).status).toBe(200);
  });

  it('throttles failed logins per source address across emails', async () => {
    const target = await newOrg(db);
    let status = 0;
    // The address limit is 8 failures (some came from the tests before).
    for (let i = 0; i < 10 && status !== 429; i++) {
      status = (await call(auth.base, 'POST', '/login', { body: { email: `spray${i}@example.test`, password: 'guess guess' } })).status;
    }
    expect(status).toBe(429);
    const blocked = await call(auth.base, 'POST', '/login', { body: { email: target.email, password: target.password } });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});

describe('session lifetime, password rehash and login timing', () => {
  let infra: IsolatedInfra;
  let db: DataSource;
  let auth: { process: PlatformProcess; base: string };

  beforeAll(async () => {
    ({ infra, db, auth } = await startIsolatedAuth({
      SESSION_TTL_SECONDS: '2',
      LOGIN_MAX_FAILURES_PER_EMAIL_AND_ADDRESS: '100',
      LOGIN_MAX_FAILURES_PER_EMAIL: '100',
      LOGIN_MAX_FAILURES_PER_ADDRESS: '100',
    }));
  });
  afterAll(() => stopIsolatedAuth({ infra, db, auth }));

  it('ends a session after SESSION_TTL_SECONDS', async () => {
    const org = await newOrg(db);
    const response = await call(auth.base, 'POST', '/login', { body: { email: org.email, password: org.password } });
    expect(response.body.expires_in).toBe(2);
    const token = response.body.access_token;
    expect((await call(auth.base, 'GET', '/org-api-credentials', { token })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const expired = await call(auth.base, 'GET', '/org-api-credentials', { token });
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe('invalid_session');
  });

  it('rehashes a password made with weaker Argon2id limits on the next successful login', async () => {
    const org = await newOrg(db, { fastHash: true });
    const before = ((await db.query('SELECT password_hash FROM auth.admins WHERE id = $1', [org.adminId])) as { password_hash: string }[])[0];
    expect(before.password_hash).toMatch(/^\$argon2id\$v=19\$m=8,t=1,/);
    await login(auth.base, org.email, org.password);
    const after = ((await db.query('SELECT password_hash FROM auth.admins WHERE id = $1', [org.adminId])) as { password_hash: string }[])[0];
    expect(after.password_hash).toMatch(/^\$argon2id\$v=19\$m=65536,t=2,/);
    const events = (await db.query(`SELECT payload FROM auth.events WHERE type = 'admin.password_rehashed' AND aggregate_id = $1`, [org.adminId])) as unknown[];
    expect(events).toHaveLength(1);
    expect(JSON.stringify(events)).not.toContain('argon2');
    await login(auth.base, org.email, org.password);
  });

  it('takes about as long for an unknown email as for a wrong password (both verify one Argon2id hash)', async () => {
    const org = await newOrg(db);
    const timed = async (email: string) => {
      const started = performance.now();
      const response = await call(auth.base, 'POST', '/login', { body: { email, password: 'not the password' } });
      expect(response.status).toBe(401);
      return performance.now() - started;
    };
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const unknown: number[] = [];
    const wrong: number[] = [];
    for (let i = 0; i < 5; i++) {
      unknown.push(await timed(`nobody${i}@example.test`));
      wrong.push(await timed(org.email));
    }
    // Without the dummy verification an unknown email would answer ~100x faster; this only checks the order of magnitude.
    const ratio = median(unknown) / median(wrong);
    expect(ratio).toBeGreaterThan(0.33);
    expect(ratio).toBeLessThan(3);
  });
});

describe('login throttle under concurrency, and JSON-only bodies', () => {
  let infra: IsolatedInfra;
  let db: DataSource;
  let auth: { process: PlatformProcess; base: string };

  beforeAll(async () => {
    ({ infra, db, auth } = await startIsolatedAuth({
      LOGIN_MAX_FAILURES_PER_EMAIL_AND_ADDRESS: '3',
      LOGIN_MAX_FAILURES_PER_ADDRESS: '100',
      LOGIN_THROTTLE_WINDOW_SECONDS: '60',
    }));
  });
  afterAll(() => stopIsolatedAuth({ infra, db, auth }));

  it('checks at most the limit of passwords when the guesses arrive at once, and then not the right one', async () => {
    const victim = await newOrg(db, { fastHash: true });
    const guesses = Array.from({ length: 12 }, (_, i) => call(auth.base, 'POST', '/login', { body: { email: victim.email, password: `wrong ${i}` } }));
    const right = call(auth.base, 'POST', '/login', { body: { email: victim.email, password: victim.password } });
    const statuses = (await Promise.all([...guesses, right])).map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(3);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it('answers a form or text body with 415, so a cross-site form cannot post a login', async () => {
    const victim = await newOrg(db, { fastHash: true });
    const form = new URLSearchParams({ email: victim.email, password: victim.password }).toString();
    for (const type of ['application/x-www-form-urlencoded', 'text/plain']) {
      const response = await call(auth.base, 'POST', '/login', { body: form, headers: { 'content-type': type } });
      expect(response.status, type).toBe(415);
      expect(response.body.code).toBe('unsupported_media_type');
    }
    expect((await call(auth.base, 'POST', '/login', { body: { email: victim.email, password: victim.password } })).status).toBe(200);
  });

  it('refuses a NUL in an email or a credential name with 400, not 500', async () => {
    const login = await call(auth.base, 'POST', '/login', { body: { email: 'a\u0000b@example.test', password: 'whatever1' } });
    expect(login.status).toBe(400);
    expect(login.body.errors.map((e: { field: string }) => e.field)).toEqual(['email']);
  });
});
