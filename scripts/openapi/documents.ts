import 'reflect-metadata';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { loadConfig, type AppConfig } from '@meter/config';
import { managementApiDocument } from '@meter/auth';
import { collectorsApiDocument } from '@meter/collectors';
import { gatewayApiDocument } from '@meter/gateway';

/** The public HTTP APIs: the gateway at {base_url}, the management API (auth) at {management_url}, collectors' uplinks at {collect_url}. */
export type PublicApi = 'gateway' | 'management' | 'collectors';

/** Each application builds its own document from its controllers (the face exports the builder). */
const DOCUMENTS: Record<PublicApi, (config: AppConfig) => Promise<OpenAPIObject>> = {
  gateway: gatewayApiDocument,
  management: managementApiDocument,
  collectors: collectorsApiDocument,
};

export const PUBLIC_APIS = Object.keys(DOCUMENTS) as PublicApi[];

/** docs/openapi/<api>.json */
export function documentPath(api: PublicApi): string {
  return `docs/openapi/${api}.json`;
}

/**
 * The document of one API without any server: it is made from the
 * controllers' decorators and the request and response schemas alone, and
 * the configuration's defaults change nothing in it, so it equals what the
 * running process serves at /docs/openapi.json.
 */
export function buildDocument(api: PublicApi): Promise<OpenAPIObject> {
  return DOCUMENTS[api](loadConfig({}));
}

/** The text committed under docs/openapi/: two-space JSON and a final newline. */
export function serialize(document: OpenAPIObject): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
