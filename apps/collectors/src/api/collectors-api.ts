import type { AppConfig } from '@meter/config';
import { buildOpenApiDocument, ERROR_PAGE_SENTENCE, type ApiDefinition } from '@meter/http';
import { DATABASE_UNAVAILABLE_ANSWERS } from '@meter/persistence';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { CollectorsModule } from '../collectors.module';

export const COLLECTOR_PASSWORD_SCHEME = 'CollectorPassword';

/** The uplink API of collectors at {collect_url}: what network servers and receivers post to (docs/collectors.md). */
export const COLLECTORS_API: ApiDefinition = {
  info: {
    title: 'Meter collectors API',
    version: '1.0.0',
    description: [
      'HTTP uplinks of the collectors utilities run: wM-Bus receivers (wmbusmeters), LoRaWAN network servers (ChirpStack v4, The Things Stack) ' +
        "and the platform's own `native` messages. MQTT takes the same formats on its own port (docs/collectors.md).",
      '',
      'Errors are `application/problem+json` (RFC 9457) with a stable `code`.',
      '',
      ERROR_PAGE_SENTENCE,
    ].join('\n'),
  },
  servers: [
    {
      url: '{collect_url}',
      description: 'The collectors process',
      variables: { collect_url: { default: 'http://localhost:8085', description: 'Where collectors are published' } },
    },
  ],
  securitySchemes: {
    [COLLECTOR_PASSWORD_SCHEME]: {
      type: 'http',
      scheme: 'bearer',
      description: 'The password of a collector credential (`POST /collector-credentials` of the management API), shown once.',
    },
  },
  security: [{ [COLLECTOR_PASSWORD_SCHEME]: [] }],
  tags: [{ name: 'Collect', description: 'One uplink per request, in the format of the collector credential.' }],
  sharedResponses: {},
  // Radio ids are matched in Postgres.
  everyOperation: DATABASE_UNAVAILABLE_ANSWERS,
  // Bodies are bytes up to 1 MiB whatever their type: the route documents its own 413.
  bodyProblems: {},
};

/** The collectors' OpenAPI document: what docs/openapi/collectors.json holds and the process serves at /docs. */
export function collectorsApiDocument(config: AppConfig): Promise<OpenAPIObject> {
  return buildOpenApiDocument(COLLECTORS_API, CollectorsModule.forRoot(config));
}
