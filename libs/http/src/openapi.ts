import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type HeadersObject, type OpenAPIObject, type ResponseObject, type SchemaObject } from '@nestjs/swagger';
import { z } from 'zod';

/** The two public HTTP APIs: the gateway at {base_url}, the management API (auth) at {management_url}. */
export type PublicApi = 'gateway' | 'management';

/** Where each process serves its document: the UI at /docs, the JSON at /docs/openapi.json. */
export const OPENAPI_PATH = 'docs';
export const OPENAPI_JSON_PATH = `${OPENAPI_PATH}/openapi.json`;

export const SVC_HMAC_SCHEME = 'SVC-HMAC';
export const BEARER_SCHEME = 'Bearer';

const SVC_HMAC_DESCRIPTION = [
  'Every request carries `Authorization: SVC-HMAC access_key=<ACCESS_KEY> signature=<SIGNATURE> timestamp=<UNIX_SECONDS>`',
  '(one line, fields separated by single spaces).',
  '',
  "signature = lowercase hex HMAC-SHA256, keyed with the credential's secret_key, over the signing string",
  '',
  '```',
  'METHOD',
  'PATH',
  'QUERY',
  'BODY_SHA256_HEX',
  'TIMESTAMP',
  '```',
  '',
  '- METHOD: the uppercase HTTP verb;',
  '- PATH: the path exactly as sent, without the query string;',
  '- QUERY: the query string exactly as sent (same order and encoding), without `?`; an empty line when there is none;',
  '- BODY_SHA256_HEX: lowercase hex SHA-256 of the raw body bytes (of the empty string without a body);',
  "- TIMESTAMP: the header's timestamp, which must be within 300 seconds of the server clock.",
  '',
  'Lines are joined by a single LF, with no trailing LF. Public credentials (`pk_live_...`) send `signature=public`.',
  "The credential needs the scope `meter:consumption:read`; when it has `allowed_cidrs`, the caller's address must be inside one.",
  '`npm run cli -- --help` lists a command that signs and sends a request; `libs/signing` is the reference implementation.',
].join('\n');

const PROBLEM_SCHEMA = {
  type: 'object',
  description: 'RFC 9457 problem details with a stable `code` (application/problem+json).',
  required: ['type', 'title', 'status', 'detail', 'code'],
  properties: {
    type: { type: 'string', format: 'uri' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    code: {
      type: 'string',
      description: [
        'Stable machine-readable reason (contract section 7). Gateway: `missing_authorization`, `malformed_authorization`,',
        '`unknown_access_key`, `invalid_signature`, `timestamp_out_of_range`, `credential_revoked` (401);',
        '`insufficient_scope`, `source_address_not_allowed` (403); `rate_limited` (429); `validation_failed` (400); `not_found` (404).',
        'Management API: `missing_authorization`, `malformed_authorization`, `invalid_session`, `invalid_credentials` (401); `credential_revoked`, `concurrent_modification` (409);',
        '`validation_failed` (400); `not_found` (404); `rate_limited` (429, login only); `vault_bad_reply` (502); `vault_unavailable`, `throttle_unavailable` (503).',
      ].join(' '),
      examples: ['invalid_signature', 'validation_failed', 'not_found'],
    },
    request_id: { type: 'string' },
    errors: {
      type: 'array',
      description: 'With `validation_failed`: what is wrong, field by field.',
      items: {
        type: 'object',
        required: ['field', 'message'],
        properties: { field: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
};

/** A problem+json answer for `@ApiResponse({ status, ...problemResponse('`code`: why') })`. */
export const problemResponse = (description: string, headers?: HeadersObject): ResponseObject => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

/** `Retry-After` alone, for answers that are not the gateway's rate limit. */
export const RETRY_AFTER_HEADER: HeadersObject = {
  'Retry-After': { description: 'Seconds to wait (an integer >= 1).', schema: { type: 'integer', minimum: 1 } },
};

const RATE_LIMIT_HEADERS: HeadersObject = {
  ...RETRY_AFTER_HEADER,
  RateLimit: { description: 'draft-ietf-httpapi-ratelimit-headers', schema: { type: 'string' } },
  'RateLimit-Policy': { description: 'draft-ietf-httpapi-ratelimit-headers', schema: { type: 'string' } },
};

/** Answers every operation of the API may give; added to each operation that does not describe them itself. */
const SHARED_RESPONSES: Record<PublicApi, Record<string, ResponseObject>> = {
  gateway: {
    '400': problemResponse('`validation_failed`: a parameter, header or body is invalid; `errors` names each field.'),
    '401': problemResponse(
      '`missing_authorization`, `malformed_authorization`, `unknown_access_key`, `invalid_signature`, `timestamp_out_of_range` or `credential_revoked`.',
    ),
    '403': problemResponse('`insufficient_scope` or `source_address_not_allowed`.'),
    '429': problemResponse('`rate_limited`: 60 requests per minute per credential. Honour Retry-After.', RATE_LIMIT_HEADERS),
  },
  management: {
    '400': problemResponse('`validation_failed`: the body or a parameter is invalid; `errors` names each field.'),
    '401': problemResponse('`missing_authorization`, `malformed_authorization` or `invalid_session` (the Bearer session token is unknown, expired or ended).'),
  },
};

/**
 * The JSON Schema (2020-12, the dialect of OpenAPI 3.1) of a zod schema, so a
 * body is documented by the schema that validates it. `io: 'input'` describes
 * what a client sends (before defaults and transforms).
 */
export function openApiSchemaOf(schema: z.ZodType, io: 'input' | 'output' = 'input'): SchemaObject {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'throw' });
  return json as SchemaObject;
}

function baseDocument(api: PublicApi): Omit<OpenAPIObject, 'paths'> {
  const builder = new DocumentBuilder().setOpenAPIVersion('3.1.0');
  if (api === 'gateway') {
    builder
      .setTitle('Meter consumption API')
      .setDescription("Devices, dashboards, consumption history and projections of an organization's meters. Every request is signed (SVC-HMAC).")
      .setVersion('1.0.0')
      .addServer('{base_url}', 'The gateway', { base_url: { default: 'http://localhost:8080', description: 'Where the gateway is published' } })
      .addApiKey({ type: 'apiKey', in: 'header', name: 'Authorization', description: SVC_HMAC_DESCRIPTION }, SVC_HMAC_SCHEME)
      .addSecurityRequirements(SVC_HMAC_SCHEME);
  } else {
    builder
      .setTitle('Meter management API')
      .setDescription('Login, API credentials and the organization vault. Every route but POST /login needs a Bearer session token.')
      .setVersion('1.0.0')
      .addServer('{management_url}', 'The management API (auth)', {
        management_url: { default: 'http://localhost:8081', description: 'Where the management API is published' },
      })
      .addBearerAuth(
        { type: 'http', scheme: 'bearer', description: 'The opaque `access_token` of POST /login, valid for `expires_in` seconds (SESSION_TTL_SECONDS).' },
        BEARER_SCHEME,
      )
      .addSecurityRequirements(BEARER_SCHEME);
  }
  const document = builder.build();
  return { ...document, components: { ...document.components, schemas: { Problem: PROBLEM_SCHEMA as never } } };
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/**
 * The OpenAPI 3.1 document of one public API, from the controllers of `app`
 * (routes marked `@ApiExcludeController()`, like the probes, stay out). Pure
 * in the controllers' metadata: the same code gives the same document, which
 * is what docs/openapi/*.json hold and CI compares.
 */
export function buildOpenApiDocument(app: INestApplication, api: PublicApi): OpenAPIObject {
  const document = SwaggerModule.createDocument(app, baseDocument(api), {
    operationIdFactory: (controllerKey, methodKey) => `${controllerKey.replace(/Controller$/, '')}_${methodKey}`,
  });
  for (const item of Object.values(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const responses = (operation.responses ??= {});
      for (const [status, response] of Object.entries(SHARED_RESPONSES[api])) responses[status] ??= response;
    }
  }
  return document;
}

/** Serves the document at /docs (Swagger UI) and /docs/openapi.json; call it before the app listens. */
export function serveOpenApi(app: INestApplication, document: OpenAPIObject): void {
  SwaggerModule.setup(OPENAPI_PATH, app, document, {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    raw: ['json'],
    customSiteTitle: document.info.title,
  });
}
