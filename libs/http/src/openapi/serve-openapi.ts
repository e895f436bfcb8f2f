import type { INestApplication } from '@nestjs/common';
import { SwaggerModule } from '@nestjs/swagger';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { errorPageHtml } from '../errors/error-page';
import { ERROR_PAGE_PATH } from '../errors/problem-type';

/** Where each process serves its document: the UI at /docs, the JSON at /docs/openapi.json. */
export const OPENAPI_PATH = 'docs';
export const OPENAPI_JSON_PATH = `${OPENAPI_PATH}/openapi.json`;

/**
 * Serves the document at /docs (Swagger UI) and /docs/openapi.json, and its error page at /docs/errors
 * (what each problem `type` points at); call it before the app listens.
 */
export function serveOpenApi(app: INestApplication, document: OpenAPIObject): void {
  const errorPage = errorPageHtml(document);
  app
    .getHttpAdapter()
    .get(ERROR_PAGE_PATH, (_request: unknown, reply: { type(value: string): { send(body: string): void } }) =>
      reply.type('text/html; charset=utf-8').send(errorPage),
    );
  // Swagger UI takes any OpenAPI 3.1 document; @nestjs/swagger types it with its own (3.0-shaped) interfaces.
  SwaggerModule.setup(OPENAPI_PATH, app, document as Parameters<typeof SwaggerModule.setup>[2], {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    raw: ['json'],
    customSiteTitle: document.info.title,
  });
}
