import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { PublicApi } from '../scripts/openapi/documents';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** An answer as the test saw it: its status, a header by name, and its parsed body (undefined when empty). */
export interface SeenResponse {
  status: number;
  header(name: string): string | null | undefined;
  body: unknown;
}

/**
 * Checks real requests and answers against the committed document of an API,
 * so the documented schemas are shown to be what the processes send.
 * (ajv comes with @seriousme/openapi-schema-validator.)
 */
export class DocumentedApi {
  private readonly document: Json;
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly seen = new Set<string>();

  constructor(api: PublicApi) {
    this.document = JSON.parse(readFileSync(`docs/openapi/${api}.json`, 'utf8'));
    addFormats(this.ajv);
  }

  /** The schema errors of `value`, or [] when it conforms. */
  private errors(schema: Json, value: unknown): string[] {
    const validate = this.ajv.compile(this.inline(schema));
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
  }

  /** `$ref`s into components replaced by their target (the documents hold no recursive schema). */
  private inline(schema: Json): Json {
    if (Array.isArray(schema)) return schema.map((s) => this.inline(s));
    if (schema === null || typeof schema !== 'object') return schema;
    if (typeof schema.$ref === 'string') {
      const name = /^#\/components\/schemas\/(.+)$/.exec(schema.$ref)?.[1];
      if (!name || !this.document.components.schemas[name]) throw new Error(`unresolvable $ref ${schema.$ref}`);
      return this.inline(this.document.components.schemas[name]);
    }
    return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, this.inline(v)]));
  }

  private operation(method: string, path: string): Json {
    const operation = this.document.paths[path]?.[method.toLowerCase()];
    if (!operation) throw new Error(`${method} ${path} is not documented`);
    return operation;
  }

  /** Problems of an answer: undocumented status, other media type, body outside the schema. */
  responseProblems(method: string, path: string, seen: SeenResponse): string[] {
    const documented = this.operation(method, path).responses[String(seen.status)];
    if (!documented) return [`status ${seen.status} is not documented`];
    this.seen.add(`${method.toUpperCase()} ${path} ${seen.status}`);
    const headers = Object.entries<Json>(documented.headers ?? {});
    const missing = headers.filter(([name, header]) => header.required && !seen.header(name)).map(([name]) => `header ${name} is missing`);
    if (missing.length) return missing;
    const contentType = seen.header('content-type');
    const content = documented.content as Record<string, { schema: Json; examples?: Record<string, { value: Json }> }> | undefined;
    if (!content) return seen.body === undefined ? [] : [`status ${seen.status} is documented without a body, got ${JSON.stringify(seen.body).slice(0, 200)}`];
    const mediaType = Object.keys(content).find((type) => contentType?.split(';')[0].trim() === type);
    if (!mediaType) return [`Content-Type ${contentType} is not one of ${Object.keys(content).join(', ')}`];
    const errors = this.errors(content[mediaType].schema, seen.body);
    // Each error code an operation really answers has its own example in the document.
    const code = (seen.body as { code?: unknown } | undefined)?.code;
    const exampleCodes = Object.values(content[mediaType].examples ?? {}).map((example) => example.value?.code);
    if (mediaType === 'application/problem+json' && !exampleCodes.includes(code))
      errors.push(`code ${String(code)} has no example among ${exampleCodes.join(', ')}`);
    return errors;
  }

  /** Problems of a request body against the documented one. */
  requestBodyProblems(method: string, path: string, body: unknown): string[] {
    const requestBody = this.operation(method, path).requestBody;
    if (!requestBody) return ['the operation documents no request body'];
    return this.errors(requestBody.content['application/json'].schema, body);
  }

  /** Operations none of whose success answers was checked. */
  uncheckedSuccesses(): string[] {
    const missing: string[] = [];
    for (const [path, item] of Object.entries<Json>(this.document.paths)) {
      for (const [method, operation] of Object.entries<Json>(item)) {
        const successes = Object.keys(operation.responses).filter((status) => status.startsWith('2'));
        if (!successes.some((status) => this.seen.has(`${method.toUpperCase()} ${path} ${status}`))) missing.push(`${method.toUpperCase()} ${path}`);
      }
    }
    return missing;
  }
}
