import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { RequestMethod, type Type } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DECORATORS } from '@nestjs/swagger';
import type { InfoObject, OpenAPIObject, SecurityRequirementObject, SecuritySchemeObject, ServerObject, TagObject } from 'openapi3-ts/oas31';
import type { ZodObject } from 'zod';
import { collectControllers, type ModuleRef } from './collect-controllers';
import { DOCUMENTED_OPERATION, type DocumentedOperation } from './documented';
import { addResponses } from './merge-responses';
import { BODY_PROBLEMS, PATH_PARAMETER_PROBLEMS, REQUEST_PROBLEMS } from './responses';

/** Who answers for both public APIs, and on what terms (package.json: UNLICENSED). */
const PLATFORM_INFO = {
  contact: { name: 'Meter platform support', email: 'support@meter.example' },
  // SPDX has no id for a proprietary licence; LicenseRef- is its form for one of your own.
  license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
} satisfies Partial<InfoObject>;

/** One public HTTP API: what its document says besides the operations. */
export interface ApiDefinition {
  info: InfoObject;
  servers: ServerObject[];
  securitySchemes: Record<string, SecuritySchemeObject>;
  security: SecurityRequirementObject[];
  /** One tag per controller, named after it (`DevicesController` -> `Devices`). */
  tags: TagObject[];
  /** Answers of every operation that uses `security` (authentication, rate limits), merged with the operation's own of that status. */
  sharedResponses: Record<number, ResponseConfig>;
  /** Answers of every operation, with or without `security`: a server every route needs (Postgres: 503 `database_unavailable`). */
  everyOperation?: Record<number, ResponseConfig>;
  /** Answers of every operation with a body, before a route sees it: BODY_PROBLEMS unless the API takes bodies its own way. */
  bodyProblems?: Record<number, ResponseConfig>;
  /** Headers and answers every POST that uses `security` adds (the management API's `Idempotency-Key`). */
  everySecuredPost?: { headers: ZodObject; responses: Record<number, ResponseConfig> };
}

/** A documented route as the router serves it. */
export interface DocumentedRoute {
  controller: Type;
  handler: string;
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI form: `/meter/v1/projection/{deviceId}`. */
  path: string;
  /** The status of a successful answer (`@HttpCode`, else Nest's default). */
  successStatus: number;
  operation: DocumentedOperation;
}

/**
 * Every route of `controllers` with its `@Documented` operation. Controllers
 * marked `@ApiExcludeController()` (the probes) stay out; any other route
 * without a documented operation, or whose documented answers miss the
 * status it succeeds with, is an error: the document cannot drift from the router.
 */
export function documentedRoutes(controllers: readonly Type[]): DocumentedRoute[] {
  const routes: DocumentedRoute[] = [];
  for (const controller of controllers) {
    if (Reflect.getMetadata(DECORATORS.API_EXCLUDE_CONTROLLER, controller)?.[0] === true) continue;
    const base = pathOf(Reflect.getMetadata(PATH_METADATA, controller));
    for (const handler of Object.getOwnPropertyNames(controller.prototype)) {
      const fn = Object.getOwnPropertyDescriptor(controller.prototype, handler)?.value;
      if (handler === 'constructor' || typeof fn !== 'function' || Reflect.getMetadata(PATH_METADATA, fn) === undefined) continue;
      const requestMethod = RequestMethod[Reflect.getMetadata(METHOD_METADATA, fn) as RequestMethod] as keyof typeof RequestMethod;
      const method = requestMethod.toLowerCase() as DocumentedRoute['method'];
      const path = openApiPath(base, pathOf(Reflect.getMetadata(PATH_METADATA, fn)));
      const where = `${controller.name}.${handler} (${requestMethod} ${path})`;
      const operation = Reflect.getMetadata(DOCUMENTED_OPERATION, fn) as DocumentedOperation | undefined;
      if (!operation) throw new Error(`${where} has no @Documented operation`);
      const successStatus = (Reflect.getMetadata(HTTP_CODE_METADATA, fn) as number | undefined) ?? (requestMethod === 'POST' ? 201 : 200);
      if (!operation.responses[successStatus]) throw new Error(`${where} answers ${successStatus} but does not document it`);
      routes.push({ controller, handler, method, path, successStatus, operation });
    }
  }
  return routes;
}

/**
 * The OpenAPI 3.1 document of one public API, from the controllers of the
 * module tree `root` (found from module metadata alone: nothing is created,
 * nothing connects). The same code gives the same document: it is what
 * docs/openapi/*.json hold and what each process serves at /docs.
 */
export async function buildOpenApiDocument(api: ApiDefinition, root: ModuleRef): Promise<OpenAPIObject> {
  return openApiDocumentOf(api, documentedRoutes(await collectControllers(root)));
}

export function openApiDocumentOf(api: ApiDefinition, routes: readonly DocumentedRoute[]): OpenAPIObject {
  const registry = new OpenAPIRegistry();
  for (const [name, scheme] of Object.entries(api.securitySchemes)) registry.registerComponent('securitySchemes', name, scheme);
  const tags = new Set(api.tags.map((tag) => tag.name));
  for (const { controller, handler, method, path, operation } of routes) {
    const tag = controller.name.replace(/Controller$/, '');
    if (!tags.has(tag)) throw new Error(`tag ${tag} of ${controller.name} is not described in the API definition`);
    // The operation's own answers, then those the platform, the API's security and its servers add (a status
    // both give is one answer with the examples of both).
    const responses: Record<number, ResponseConfig> = { ...operation.responses };
    if (operation.request?.body) addResponses(responses, api.bodyProblems ?? BODY_PROBLEMS);
    if (/\{[^}]+\}/.test(path)) addResponses(responses, PATH_PARAMETER_PROBLEMS);
    addResponses(responses, REQUEST_PROBLEMS);
    if (operation.security === undefined) addResponses(responses, api.sharedResponses);
    addResponses(responses, api.everyOperation ?? {});
    let request = operation.request;
    if (method === 'post' && operation.security === undefined && api.everySecuredPost) {
      const { headers, responses: added } = api.everySecuredPost;
      const own = request?.headers;
      request = { ...request, headers: own && 'extend' in own ? own.extend(headers.shape) : headers };
      addResponses(responses, added);
    }
    registry.registerPath({
      method,
      path,
      operationId: `${tag}_${handler}`,
      tags: [tag],
      summary: operation.summary,
      description: operation.description,
      ...(operation.security ? { security: operation.security } : {}),
      ...(request ? { request } : {}),
      responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b))),
    });
  }
  const generated = new OpenApiGeneratorV31(registry.definitions, { sortComponents: 'alphabetically' }).generateDocument({
    openapi: '3.1.0',
    info: { ...api.info, ...PLATFORM_INFO },
    servers: api.servers,
    security: api.security,
    tags: api.tags,
  });
  // The generator always writes webhooks and component parameters; these APIs have neither.
  const { webhooks: _webhooks, components, ...document } = generated;
  const { parameters: _parameters, ...usedComponents } = components ?? {};
  return { ...document, components: usedComponents };
}

function pathOf(metadata: string | string[] | undefined): string {
  const path = Array.isArray(metadata) ? metadata[0] : metadata;
  return path ?? '';
}

/** `meter/v1/projection` + `:deviceId` -> `/meter/v1/projection/{deviceId}`. */
function openApiPath(base: string, route: string): string {
  const joined = `/${[base, route]
    .map((part) => part.replace(/^\/+|\/+$/g, ''))
    .filter(Boolean)
    .join('/')}`;
  return joined.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}
