import { Documented, jsonBody, jsonResponse, noContent, ProblemException, problemResponse, problemThrownBy, RETRY_AFTER_HEADER } from '@meter/http';
import { parseBody } from '../common/parse-body';
import { loginRequest, sessionSchema } from './login.schema';
import { invalidCredentials } from './sessions.service';

const CREDENTIALS = { email: 'ada.lovelace@riverside-water.example', password: 'correct horse battery staple' };

export const ApiLogin = () =>
  Documented({
    summary: 'Log in as an organization admin',
    description: 'Exchanges email and password for a Bearer session token. Failed attempts are counted per email and per source address, and throttled.',
    // Empty: the one route a client calls before it holds a token overrides the document's Bearer requirement.
    security: [],
    request: { body: jsonBody("The admin's email and password.", loginRequest, { admin: { summary: 'An admin of the organization', value: CREDENTIALS } }) },
    responses: {
      200: jsonResponse('The session.', sessionSchema, {
        session: {
          summary: 'A session of one hour',
          value: { access_token: 'mst_EXAMPLE-x7Kq2mVb9RtLw4Nc8Pz1Yd6Hs3Fg5Jk0Qa2', token_type: 'Bearer', expires_in: 3600 },
        },
      }),
      400: problemResponse('`validation_failed`: the body is not `{email, password}`; `errors` names each field.', {
        missing_password: { summary: 'No password', problem: problemThrownBy(() => parseBody(loginRequest, { email: CREDENTIALS.email })) },
        unknown_field: {
          summary: 'A field login does not take',
          problem: problemThrownBy(() => parseBody(loginRequest, { ...CREDENTIALS, organization: 'riverside' })),
        },
      }),
      401: problemResponse(
        '`invalid_credentials`: the email or the password is wrong, or the admin is deactivated (the same answer for each).',
        { invalid_credentials: { summary: 'A wrong password', problem: invalidCredentials() } },
        { 'WWW-Authenticate': { required: true, schema: { type: 'string' }, example: 'Bearer' } },
      ),
      429: problemResponse(
        '`rate_limited`: too many failed logins for this email or from this address. Honour Retry-After.',
        {
          rate_limited: {
            summary: 'The sixth failure within the window',
            problem: new ProblemException(429, 'rate_limited', 'too many failed logins; retry in 847 s', {}, { 'Retry-After': '847' }),
          },
        },
        RETRY_AFTER_HEADER,
      ),
      503: problemResponse(
        '`throttle_unavailable`: logins pause while the failed-attempt counter (Redis) is unreachable. Honour Retry-After.',
        {
          throttle_unavailable: {
            summary: 'Redis does not answer',
            problem: new ProblemException(503, 'throttle_unavailable', 'logins are paused while the attempt counter is unreachable; retry shortly'),
          },
        },
        RETRY_AFTER_HEADER,
      ),
    },
  });

export const ApiLogout = () =>
  Documented({
    summary: 'End the current session',
    description: 'The Bearer token of the request stops working at once.',
    responses: { 204: noContent('The session is ended.') },
  });
