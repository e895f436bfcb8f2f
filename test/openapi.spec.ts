import { readFileSync } from 'node:fs';
import { Body, Controller, forwardRef, Get, HttpCode, Inject, Module, Param, Post, type DynamicModule } from '@nestjs/common';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { OperationObject, ResponseObject } from 'openapi3-ts/oas31';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BEARER_SCHEME, CONSOLE_SESSION_SCHEME } from '@meter/auth';
import { COLLECTOR_PASSWORD_SCHEME } from '@meter/collectors';
import { SVC_HMAC_SCHEME } from '@meter/gateway';
import {
  buildOpenApiDocument,
  collectControllers,
  Documented,
  HttpCoreModule,
  jsonBody,
  jsonResponse,
  notFound,
  OPENAPI_JSON_PATH,
  ProblemException,
  problemResponse,
  RETRY_AFTER_HEADER,
  serveOpenApi,
  type ApiDefinition,
} from '@meter/http';
import { createHttpApp } from '@meter/platform';
import { buildDocument, documentPath, PUBLIC_APIS, serialize } from '../scripts/openapi/documents';

async function validate(document: unknown) {
  const validator = new Validator();
  const result = await validator.validate(document as Record<string, unknown>);
  return { valid: result.valid, errors: result.errors, version: validator.version };
}

describe.each(PUBLIC_APIS)('docs/openapi/%s.json', (api) => {
  it('is what the code generates (run `npm run openapi` after changing a controller or a schema)', async () => {
    const committed = readFileSync(documentPath(api), 'utf8');
    expect(serialize(await buildDocument(api)), `${documentPath(api)} is stale: run npm run openapi and commit it`).toBe(committed);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await validate(JSON.parse(readFileSync(documentPath(api), 'utf8')));
    expect(result.errors).toBeUndefined();
    expect(result).toMatchObject({ valid: true, version: '3.1' });
  });

  it('describes its security scheme and keeps probes and metrics out', async () => {
    const document = JSON.parse(readFileSync(documentPath(api), 'utf8'));
    if (api === 'gateway') {
      expect(document.security).toEqual([{ [SVC_HMAC_SCHEME]: [] }]);
      expect(document.components.securitySchemes[SVC_HMAC_SCHEME]).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
      expect(document.components.securitySchemes[SVC_HMAC_SCHEME].description).toContain('METHOD\nPATH\nQUERY\nBODY_SHA256_HEX\nTIMESTAMP');
    } else if (api === 'collectors') {
      expect(document.security).toEqual([{ [COLLECTOR_PASSWORD_SCHEME]: [] }]);
      expect(document.components.securitySchemes[COLLECTOR_PASSWORD_SCHEME]).toMatchObject({ type: 'http', scheme: 'bearer' });
    } else {
      // The management API also takes the admin console's cookie session (contract section 11).
      expect(document.security).toEqual([{ [BEARER_SCHEME]: [] }, { [CONSOLE_SESSION_SCHEME]: [] }]);
      expect(document.components.securitySchemes[BEARER_SCHEME]).toMatchObject({ type: 'http', scheme: 'bearer' });
      expect(document.components.securitySchemes[CONSOLE_SESSION_SCHEME]).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'meter_session' });
    }
    for (const path of ['/healthz', '/readyz', '/metrics']) expect(document.paths[path]).toBeUndefined();
  });

  it('gives every operation an example of each answer, and each error answer one per code', () => {
    const document = JSON.parse(readFileSync(documentPath(api), 'utf8'));
    for (const [path, item] of Object.entries<Record<string, { responses: Record<string, { content?: Record<string, { examples?: object }> }> }>>(
      document.paths,
    )) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          for (const [type, media] of Object.entries(response.content ?? {})) {
            const examples = Object.values(media.examples ?? {}) as { value: { code?: string } }[];
            expect(examples.length, `${method} ${path} ${status} ${type} has no example`).toBeGreaterThan(0);
            if (type === 'application/problem+json') {
              for (const { value } of examples) expect(value).toMatchObject({ status: Number(status), code: expect.any(String) });
            }
          }
        }
      }
    }
  });
});

/** The generator on a small application of its own, so its rules are shown on routes made for them. */
const ITEM_REPOSITORY = Symbol('ITEM_REPOSITORY');

const item = z.object({ id: z.string(), name: z.string().max(40) }).meta({ id: 'Item' });
const newItem = z.strictObject({ name: z.string().max(40) }).meta({ id: 'NewItem' });
const UNAUTHENTICATED = problemResponse('Not authenticated.', { no_key: { summary: 'No key', problem: notFound('x') } });

@Controller('meter/v1/items')
class ItemsController {
  // Its provider throws when created: the generator never creates it.
  constructor(@Inject(ITEM_REPOSITORY) private readonly repository: unknown) {}

  @Get(':id')
  @Documented({
    summary: 'One item',
    description: 'An item by id.',
    request: { params: z.object({ id: z.string() }) },
    responses: {
      200: jsonResponse('The item', item, { one: { summary: 'An item', value: { id: 'i1', name: 'Kettle' } } }),
      404: problemResponse('Unknown.', { not_found: { summary: 'No such item', problem: notFound('no item i9') } }),
    },
  })
  one(@Param('id') id: string) {
    return { id, repository: typeof this.repository };
  }

  @Post()
  @HttpCode(201)
  @Documented({
    summary: 'Create an item',
    description: 'A new item.',
    request: { body: jsonBody('The item', newItem, { kettle: { summary: 'A kettle', value: { name: 'Kettle' } } }) },
    responses: { 201: jsonResponse('The item', item, { one: { summary: 'An item', value: { id: 'i1', name: 'Kettle' } } }) },
  })
  create(@Body() body: unknown) {
    return body;
  }
}

@Controller('login')
class LoginController {
  @Post()
  @HttpCode(200)
  @Documented({ summary: 'Log in', description: 'No credentials needed.', security: [], responses: { 200: { description: 'In.' } } })
  login() {
    return {};
  }
}

@Module({ controllers: [LoginController] })
class LoginModule {}

@Module({ imports: [HttpCoreModule, LoginModule] })
class ServedApp {}

@Module({
  imports: [forwardRef(() => LoginModule)],
  controllers: [ItemsController],
  // As a real repository would connect, this one fails when created: the generator must never create it.
  providers: [
    {
      provide: ITEM_REPOSITORY,
      useFactory: () => {
        throw new Error('the generator created a provider');
      },
    },
  ],
})
class ItemsModule {}

const fixture = (...controllers: (new (...args: never[]) => unknown)[]): DynamicModule => ({
  module: class FixtureApp {},
  imports: [HttpCoreModule, ItemsModule],
  controllers,
});

const API: ApiDefinition = {
  info: { title: 'Items', version: '1.0.0' },
  servers: [{ url: 'http://localhost' }],
  securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'Authorization' } },
  security: [{ key: [] }],
  tags: [
    { name: 'Items', description: 'Items.' },
    { name: 'Login', description: 'Login.' },
  ],
  sharedResponses: { 401: UNAUTHENTICATED },
};

describe('the document generator', () => {
  it('finds the controllers of nested, dynamic and forward-referenced modules', async () => {
    const names = (await collectControllers(fixture())).map((c) => c.name);
    expect(names).toEqual(['ProbesController', 'ItemsController', 'LoginController']);
  });

  it('documents each route where the router serves it, with its schemas, its answers and the shared ones, without the probes', async () => {
    const document = await buildOpenApiDocument(API, fixture());
    expect(Object.keys(document.paths ?? {}).sort()).toEqual(['/login', '/meter/v1/items', '/meter/v1/items/{id}']);
    const one = document.paths!['/meter/v1/items/{id}'].get!;
    expect(one).toMatchObject({ operationId: 'Items_one', tags: ['Items'], parameters: [{ name: 'id', in: 'path', required: true }] });
    // Every route may get the platform's 408 and 417; a path parameter brings its 414.
    expect(Object.keys(one.responses ?? {})).toEqual(['200', '401', '404', '408', '414', '417']);
    const create = document.paths!['/meter/v1/items'].post!;
    // A body brings the platform's 413 and 415; the login route opts out of the shared 401.
    expect(Object.keys(create.responses ?? {})).toEqual(['201', '401', '408', '413', '415', '417']);
    expect(Object.keys(document.paths!['/login'].post!.responses ?? {})).toEqual(['200', '408', '417']);
    expect(document.components?.schemas?.NewItem).toMatchObject({ properties: { name: { maxLength: 40 } }, additionalProperties: false });
    expect(document.info).toMatchObject({ license: { name: 'Proprietary' }, contact: expect.any(Object) });
    const result = await validate(JSON.parse(serialize(document)));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it("adds the API's answers of every operation to each, with or without security, merged with the operation's own", async () => {
    const unavailable = (code: string, summary: string) =>
      problemResponse(`\`${code}\`.`, { [code]: { summary, problem: new ProblemException(503, code, summary) } }, RETRY_AFTER_HEADER);
    @Controller('dependent')
    class DependentController {
      @Get()
      @Documented({
        summary: 'Needs a service',
        description: 'Answers 503 when the service is away.',
        responses: { 200: { description: 'Done.' }, 503: unavailable('service_unavailable', 'The service is away') },
      })
      read() {
        return {};
      }
    }
    const document = await buildOpenApiDocument(
      {
        ...API,
        tags: [...API.tags, { name: 'Dependent', description: 'Dependent.' }],
        everyOperation: { 503: unavailable('database_unavailable', 'The database is away') },
      },
      fixture(DependentController),
    );
    const examples = (status: string, operation?: OperationObject) =>
      Object.keys((operation?.responses?.[status] as ResponseObject | undefined)?.content?.['application/problem+json']?.examples ?? {});
    expect(examples('503', document.paths!['/dependent'].get)).toEqual(['service_unavailable', 'database_unavailable']);
    expect((document.paths!['/dependent'].get!.responses!['503'] as ResponseObject).description).toBe('`service_unavailable`.\n\n`database_unavailable`.');
    expect(examples('503', document.paths!['/login'].post)).toEqual(['database_unavailable']);
    expect(examples('503', document.paths!['/meter/v1/items/{id}'].get)).toEqual(['database_unavailable']);
    expect(examples('408', document.paths!['/login'].post)).toEqual(['request_timeout']);
  });

  it('refuses a route it has no operation for, and one that does not document the status it answers', async () => {
    @Controller('undocumented')
    class UndocumentedController {
      @Get()
      list() {
        return [];
      }
    }
    await expect(buildOpenApiDocument(API, fixture(UndocumentedController))).rejects.toThrow(
      'UndocumentedController.list (GET /undocumented) has no @Documented operation',
    );

    @Controller('created')
    class CreatedController {
      @Post()
      @Documented({ summary: 'Create', description: 'Answers 201.', responses: { 200: { description: 'Not what it answers.' } } })
      create() {
        return {};
      }
    }
    await expect(buildOpenApiDocument(API, fixture(CreatedController))).rejects.toThrow(
      'CreatedController.create (POST /created) answers 201 but does not document it',
    );
  });

  it('has a validator that refuses a broken document', async () => {
    const document = JSON.parse(serialize(await buildOpenApiDocument(API, fixture())));
    document.paths['/meter/v1/items/{id}'].get.responses['200'] = { content: {} };
    delete document.info.title;
    expect((await validate(document)).valid).toBe(false);
  });

  it('gives the same text twice', async () => {
    expect(serialize(await buildOpenApiDocument(API, fixture()))).toBe(serialize(await buildOpenApiDocument(API, fixture())));
  });
});

describe('serveOpenApi', () => {
  it('serves the document at /docs/openapi.json and Swagger UI at /docs', async () => {
    const document = await buildOpenApiDocument(API, fixture());
    const app = await createHttpApp(ServedApp, pino({ level: 'silent' }));
    try {
      serveOpenApi(app, document);
      await app.init();
      const fastify = app.getHttpAdapter().getInstance();
      await fastify.ready();
      const json = await fastify.inject({ method: 'GET', url: `/${OPENAPI_JSON_PATH}` });
      expect(json.statusCode).toBe(200);
      expect(json.json()).toEqual(JSON.parse(JSON.stringify(document)));
      const ui = await fastify.inject({ method: 'GET', url: '/docs' });
      expect(ui.statusCode).toBe(200);
      expect(ui.headers['content-type']).toMatch(/^text\/html/);
      const asset = await fastify.inject({ method: 'GET', url: '/docs/swagger-ui.css' });
      expect(asset.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
