import type { AppConfig } from '@meter/config';
import { buildOpenApiDocument, ERROR_PAGE_SENTENCE, ProblemException, problemResponse, type ApiDefinition } from '@meter/http';
import { DATABASE_UNAVAILABLE_ANSWERS } from '@meter/persistence';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { IDEMPOTENCY_ON_POST } from '../idempotency/idempotency.openapi';
import { AuthModule } from '../auth.module';

export const BEARER_SCHEME = 'Bearer';
export const CONSOLE_SESSION_SCHEME = 'ConsoleSession';

/** What AdminSessionGuard answers a request without a live session. */
const NOT_AUTHENTICATED = problemResponse(
  'The request has no live session: `missing_authorization`, `malformed_authorization` or `invalid_session` (unknown, expired or ended; log in again).',
  {
    missing_authorization: {
      summary: 'No Authorization header',
      problem: new ProblemException(401, 'missing_authorization', 'send Authorization: Bearer <access_token> from POST /login'),
    },
    malformed_authorization: {
      summary: 'Not `Bearer <access_token>`',
      problem: new ProblemException(401, 'malformed_authorization', 'expected Authorization: Bearer <access_token>'),
    },
    invalid_session: {
      summary: 'An expired or ended session',
      problem: new ProblemException(401, 'invalid_session', 'the session token is unknown, expired or ended; log in again'),
    },
  },
  {
    'WWW-Authenticate': {
      required: true,
      description: 'The scheme to authenticate with.',
      schema: { type: 'string' },
      example: 'Bearer error="invalid_token"',
    },
  },
);

/** The management API (auth) at {management_url}. */
export const MANAGEMENT_API: ApiDefinition = {
  info: {
    title: 'Meter management API',
    version: '1.0.0',
    description: [
      'Login, API credentials for the consumption API and the organization vault. Every route but `POST /login` needs the Bearer session token it issues.',
      '',
      'Errors are `application/problem+json` (RFC 9457) with a stable `code`. docs/management-api.md explains the decisions behind each answer.',
      '',
      ERROR_PAGE_SENTENCE,
      '',
      '```sh',
      'MANAGEMENT_URL=http://localhost:8081',
      "TOKEN=$(curl -sS $MANAGEMENT_URL/login -H 'Content-Type: application/json' \\",
      '  -d \'{"email":"ada.lovelace@riverside-water.example","password":"correct horse battery staple"}\' | jq -r .access_token)',
      'curl -sS $MANAGEMENT_URL/org-api-credentials -H "Authorization: Bearer $TOKEN" -H \'Content-Type: application/json\' \\',
      '  -d \'{"name":"Billing export","type":"secret","scopes":["meter:consumption:read"]}\'',
      '```',
    ].join('\n'),
  },
  servers: [
    {
      url: '{management_url}',
      description: 'The management API (auth)',
      variables: { management_url: { default: 'http://localhost:8081', description: 'Where the management API is published' } },
    },
  ],
  securitySchemes: {
    [BEARER_SCHEME]: {
      type: 'http',
      scheme: 'bearer',
      description: 'The opaque `access_token` of POST /login, valid for `expires_in` seconds (SESSION_TTL_SECONDS).',
    },
    [CONSOLE_SESSION_SCHEME]: {
      type: 'apiKey',
      in: 'cookie',
      name: 'meter_session',
      description:
        "The admin console's session cookie, set by `POST /session`. A request that changes something (not GET/HEAD/OPTIONS) must also send the session's CSRF token as `X-CSRF-Token`, else 403 `csrf_failed`. With an `Authorization` header the cookie is ignored.",
    },
  },
  security: [{ [BEARER_SCHEME]: [] }, { [CONSOLE_SESSION_SCHEME]: [] }],
  tags: [
    { name: 'Sessions', description: 'Log in and out.' },
    { name: 'ConsoleSession', description: "The admin console's cookie session (docs/console.md): sign in, the CSRF token, sign out." },
    { name: 'Credentials', description: 'API credentials that sign requests to the consumption API.' },
    {
      name: 'CollectorCredentials',
      description: 'User names and passwords of the collectors (wM-Bus receivers, LoRaWAN network servers) that send readings (docs/collectors.md).',
    },
    { name: 'Vault', description: 'Sealed storage credentials of the organization; readable back only masked.' },
    { name: 'Exports', description: "Batch exports: each night the organization's daily consumption, written to its own S3, Azure or GCS storage." },
    { name: 'Webhooks', description: 'Endpoints that receive alert and export events, signed per Standard Webhooks 1.0, and their deliveries.' },
    {
      name: 'Devices',
      description: "The organization's fleet: devices with their newest reading and open alerts, and each one's consumption as the gateway answers it.",
    },
    { name: 'Alerts', description: "Alert episodes across the organization's fleet." },
    {
      name: 'AuditLog',
      description:
        'Who did what and when in the organization: sign-ins, credentials, vault entries, export integrations and webhook endpoints. Never a secret.',
    },
  ],
  sharedResponses: { 401: NOT_AUTHENTICATED },
  // Sessions, admins and credentials live in Postgres: every route, POST /login included, needs it.
  everyOperation: DATABASE_UNAVAILABLE_ANSWERS,
  everySecuredPost: IDEMPOTENCY_ON_POST,
};

/** The management API's OpenAPI document: what docs/openapi/management.json holds and the auth process serves at /docs. */
export function managementApiDocument(config: AppConfig): Promise<OpenAPIObject> {
  return buildOpenApiDocument(MANAGEMENT_API, AuthModule.forRoot(config));
}
