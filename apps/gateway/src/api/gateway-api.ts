import type { AppConfig } from '@meter/config';
import { buildOpenApiDocument, ERROR_PAGE_SENTENCE, type ApiDefinition } from '@meter/http';
import { DATABASE_UNAVAILABLE_ANSWERS } from '@meter/persistence';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { GatewayModule } from '../gateway.module';
import { REQUIRED_SCOPE } from '../security/authenticate';
import { SECURITY_RESPONSES } from '../security/security.openapi';
import { SIGNED_REQUEST_GUIDE } from './signed-request-samples';

export const SVC_HMAC_SCHEME = 'SVC-HMAC';

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
  `The credential needs the scope \`${REQUIRED_SCOPE}\`; when it has \`allowed_cidrs\`, the caller's address must be inside one.`,
].join('\n');

const DESCRIPTION = [
  "Devices, dashboards, consumption history and projections of an organization's meters. Every request is signed with an API credential (SVC-HMAC).",
  '',
  'Errors are `application/problem+json` (RFC 9457) with a stable `code`; every answer, errors included, carries the `RateLimit-Policy` and `RateLimit` ' +
    'headers of the credential (or, for a refused request, of its source address).',
  '',
  ERROR_PAGE_SENTENCE,
  '',
  SIGNED_REQUEST_GUIDE,
].join('\n');

/** The signed consumption API at {base_url}. */
export const GATEWAY_API: ApiDefinition = {
  info: { title: 'Meter consumption API', version: '1.0.0', description: DESCRIPTION },
  servers: [
    {
      url: '{base_url}',
      description: 'The gateway',
      variables: { base_url: { default: 'http://localhost:8080', description: 'Where the gateway is published' } },
    },
  ],
  securitySchemes: { [SVC_HMAC_SCHEME]: { type: 'apiKey', in: 'header', name: 'Authorization', description: SVC_HMAC_DESCRIPTION } },
  security: [{ [SVC_HMAC_SCHEME]: [] }],
  tags: [
    { name: 'Devices', description: "The organization's meters, page by page." },
    { name: 'Dashboard', description: 'Four panels per channel for up to 100 devices at once.' },
    { name: 'History', description: 'Consumption per local day, and per month over the last three months.' },
    { name: 'Consumption', description: 'Consumption per 15 minutes, hour, local day or local month over any range.' },
    { name: 'Projection', description: "The current month's consumption and cost, projected from its completed days." },
    { name: 'Alerts', description: 'Leaks, bursts, no flow, silence and device alarms, as episodes per device channel.' },
  ],
  sharedResponses: SECURITY_RESPONSES,
  // Every route reads the read model.
  everyOperation: DATABASE_UNAVAILABLE_ANSWERS,
};

/** The gateway's OpenAPI document: what docs/openapi/gateway.json holds and the process serves at /docs. */
export function gatewayApiDocument(config: AppConfig): Promise<OpenAPIObject> {
  return buildOpenApiDocument(GATEWAY_API, GatewayModule.forRoot(config));
}
