import { Documented, jsonBody, jsonResponse, noContent, ProblemException, problemResponse, RETRY_AFTER_HEADER } from '@meter/http';
import { consoleSessionSchema, loginRequest } from './login.schema';
import { invalidCredentials } from './sessions.service';

const EXAMPLE_SESSION = {
  email: 'ada.lovelace@riverside-water.example',
  org_id: 'riverside',
  csrf_token: 'Zq3v9xK2mB7wLr4Nc8Pz1Yd6Hs3Fg5Jk0Qa2EXAMPLE',
};
const SET_COOKIE = {
  'Set-Cookie': {
    required: true,
    description:
      '`meter_session=<token>; Path=/; Max-Age=<SESSION_TTL_SECONDS>; HttpOnly; SameSite=Strict` (plus `Secure` over HTTPS and whenever NODE_ENV=production).',
    schema: { type: 'string' as const },
  },
};

export const ApiConsoleSignIn = () =>
  Documented({
    summary: 'Sign in to the admin console (cookie session)',
    description:
      "The console's sign-in: the same check and throttling as `POST /login`, but the session token goes into an `HttpOnly`, `SameSite=Strict` cookie, never to the page. The answer carries the CSRF token that requests changing something must send as `X-CSRF-Token`.",
    security: [],
    request: {
      body: jsonBody("The admin's email and password.", loginRequest, {
        admin: { summary: 'An admin', value: { email: EXAMPLE_SESSION.email, password: 'correct horse battery staple' } },
      }),
    },
    responses: {
      200: jsonResponse('Signed in; the cookie is set.', consoleSessionSchema, { session: { summary: 'Signed in', value: EXAMPLE_SESSION } }, SET_COOKIE),
      401: problemResponse('`invalid_credentials`: the email or the password is wrong.', {
        invalid_credentials: { summary: 'A wrong password', problem: invalidCredentials() },
      }),
      429: problemResponse(
        '`rate_limited`: too many failed sign-ins. Honour Retry-After.',
        {
          rate_limited: {
            summary: 'Throttled',
            problem: new ProblemException(429, 'rate_limited', 'too many failed logins; retry in 60 s', {}, { 'Retry-After': '60' }),
          },
        },
        RETRY_AFTER_HEADER,
      ),
    },
  });

export const ApiConsoleSession = () =>
  Documented({
    summary: "The console's current session",
    description: 'Who is signed in and the CSRF token of the cookie session (the page keeps it in memory; after a reload it asks again).',
    responses: { 200: jsonResponse('The session.', consoleSessionSchema, { session: { summary: 'Signed in', value: EXAMPLE_SESSION } }) },
  });

export const ApiConsoleSignOut = () =>
  Documented({
    summary: 'Sign out of the admin console',
    description: 'Ends the session (cookie or Bearer) at once and clears the cookie. With the cookie it needs `X-CSRF-Token`, else 403 `csrf_failed`.',
    responses: {
      204: noContent('Signed out.'),
      403: problemResponse('`csrf_failed`: no valid `X-CSRF-Token` with the cookie.', {
        csrf_failed: {
          summary: 'No CSRF token',
          problem: new ProblemException(403, 'csrf_failed', 'a console request that changes something needs the X-CSRF-Token of its session; reload the page'),
        },
      }),
    },
  });
