import 'reflect-metadata';
import type { DynamicModule, Type } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import { Test } from '@nestjs/testing';
import { loadConfig } from '@meter/config';
import { buildOpenApiDocument, type PublicApi } from '@meter/http';
import { AuthModule } from '../../apps/auth/src/auth.module';
import { GatewayModule } from '../../apps/gateway/src/gateway.module';
import { collectControllers } from './collect-controllers';

/** Which application serves which public API. */
const APPLICATIONS: Record<PublicApi, () => DynamicModule> = {
  gateway: () => GatewayModule.forRoot(loadConfig({})),
  management: () => AuthModule.forRoot(loadConfig({})),
};

export const PUBLIC_APIS = Object.keys(APPLICATIONS) as PublicApi[];

/** docs/openapi/<api>.json */
export function documentPath(api: PublicApi): string {
  return `docs/openapi/${api}.json`;
}

/**
 * The document of one API without any server: a testing module holds only the
 * application's controllers, every dependency of theirs is an empty stub
 * (`useMocker`), and nothing is initialised, so no connection is attempted.
 * The scan needs only the controllers' decorators, so the result equals what
 * the running process serves at /docs/openapi.json.
 */
export async function buildDocument(api: PublicApi): Promise<OpenAPIObject> {
  return buildDocumentOf(APPLICATIONS[api](), api);
}

export async function buildDocumentOf(application: DynamicModule | Type, api: PublicApi): Promise<OpenAPIObject> {
  const controllers: Type[] = await collectControllers(application);
  const moduleRef = await Test.createTestingModule({ controllers })
    .useMocker(() => ({}))
    .compile();
  const app = moduleRef.createNestApplication(new FastifyAdapter(), { logger: false });
  try {
    return buildOpenApiDocument(app, api);
  } finally {
    await app.close();
  }
}

/** The text committed under docs/openapi/: two-space JSON and a final newline. */
export function serialize(document: OpenAPIObject): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
