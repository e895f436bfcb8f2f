import { readFileSync } from 'node:fs';
import { Body, Controller, forwardRef, Get, Inject, Module, Param, Post, type DynamicModule } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Validator } from '@seriousme/openapi-schema-validator';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { BEARER_SCHEME, HttpCoreModule, OPENAPI_JSON_PATH, serveOpenApi, SVC_HMAC_SCHEME } from '@meter/http';
import { createHttpApp } from '@meter/platform';
import { collectControllers } from '../scripts/openapi/collect-controllers';
import { buildDocument, buildDocumentOf, documentPath, PUBLIC_APIS, serialize } from '../scripts/openapi/documents';

async function validate(document: unknown) {
  const validator = new Validator();
  const result = await validator.validate(document as Record<string, unknown>);
  return { valid: result.valid, errors: result.errors, version: validator.version };
}

describe.each(PUBLIC_APIS)('docs/openapi/%s.json', (api) => {
  it('is what the code generates (run `npm run openapi` after changing a controller)', async () => {
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
    const scheme = api === 'gateway' ? SVC_HMAC_SCHEME : BEARER_SCHEME;
    expect(document.security).toEqual([{ [scheme]: [] }]);
    if (api === 'gateway') {
      expect(document.components.securitySchemes[scheme]).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
      expect(document.components.securitySchemes[scheme].description).toContain('METHOD\nPATH\nQUERY\nBODY_SHA256_HEX\nTIMESTAMP');
    } else {
      expect(document.components.securitySchemes[scheme]).toMatchObject({ type: 'http', scheme: 'bearer' });
    }
    expect(Object.keys(document.paths)).not.toEqual(expect.arrayContaining(['/healthz']));
    for (const path of ['/healthz', '/readyz', '/metrics']) expect(document.paths[path]).toBeUndefined();
  });
});

/** The generator on a small application of its own, so it is shown to document routes, not only the empty ones of today. */
const ITEM_REPOSITORY = Symbol('ITEM_REPOSITORY');

class CreateItem {
  @ApiProperty({ description: 'A label', maxLength: 40 })
  name!: string;
}

@ApiTags('items')
@Controller('meter/v1/items')
class ItemsController {
  // Its provider throws when created: the generator stubs it instead.
  constructor(@Inject(ITEM_REPOSITORY) private readonly repository: unknown) {}

  @Get(':id')
  @ApiOkResponse({ description: 'The item' })
  one(@Param('id') id: string) {
    return { id, repository: typeof this.repository };
  }

  @Post()
  create(@Body() body: CreateItem) {
    return body;
  }
}

@Controller('login')
class LoginController {
  @Post()
  @ApiSecurity({})
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

const fixture = (): DynamicModule => ({ module: class FixtureApp {}, imports: [HttpCoreModule, ItemsModule] });

describe('the document generator', () => {
  it('finds the controllers of nested, dynamic and forward-referenced modules', async () => {
    const names = (await collectControllers(fixture())).map((c) => c.name);
    expect(names).toEqual(['ProbesController', 'ItemsController', 'LoginController']);
  });

  it('documents routes with their bodies, shared problem answers and the scheme, without the probes', async () => {
    const document = await buildDocumentOf(fixture(), 'gateway');
    expect(Object.keys(document.paths).sort()).toEqual(['/login', '/meter/v1/items', '/meter/v1/items/{id}']);
    const one = document.paths['/meter/v1/items/{id}'].get!;
    expect(one.operationId).toBe('Items_one');
    expect(Object.keys(one.responses).sort()).toEqual(['200', '400', '401', '403', '429']);
    expect(one.responses['429']).toMatchObject({ headers: { 'Retry-After': expect.any(Object) } });
    expect(document.components?.schemas?.CreateItem).toMatchObject({ properties: { name: { maxLength: 40 } } });
    const result = await validate(JSON.parse(serialize(document)));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('has a validator that refuses a broken document', async () => {
    const document = JSON.parse(serialize(await buildDocumentOf(fixture(), 'gateway')));
    document.paths['/meter/v1/items/{id}'].get.responses['200'] = { content: {} };
    delete document.info.title;
    expect((await validate(document)).valid).toBe(false);
  });

  it('gives the same text twice', async () => {
    expect(serialize(await buildDocumentOf(fixture(), 'management'))).toBe(serialize(await buildDocumentOf(fixture(), 'management')));
  });
});

describe('serveOpenApi', () => {
  it('serves the document at /docs/openapi.json and Swagger UI at /docs', async () => {
    const document = await buildDocumentOf(fixture(), 'gateway');
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
