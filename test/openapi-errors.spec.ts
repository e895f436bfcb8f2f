import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { describe, expect, it } from 'vitest';
import { documentedErrorCodes, ERROR_CODES, errorPageHtml, problemType } from '@meter/http';

const documentOf = (api: string) => JSON.parse(readFileSync(join(__dirname, '..', 'docs', 'openapi', `${api}.json`), 'utf8')) as OpenAPIObject;

/** Every problem example of a document: its code and its type. */
function problemExamples(document: OpenAPIObject): { code: string; type: string }[] {
  const found: { code: string; type: string }[] = [];
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    const value = node as Record<string, unknown>;
    if (typeof value.code === 'string' && typeof value.type === 'string' && typeof value.status === 'number')
      found.push({ code: value.code, type: value.type });
    for (const child of Object.values(value)) walk(child);
  };
  walk(document.paths);
  return found;
}

describe.each(['gateway', 'management'])('the error page of the %s API', (api) => {
  const document = documentOf(api);
  const codes = documentedErrorCodes(document);
  const page = errorPageHtml(document);

  it('describes every code the document shows, with what to do about it', () => {
    expect(codes.size).toBeGreaterThan(10);
    expect([...codes.keys()].filter((code) => !ERROR_CODES[code])).toEqual([]);
  });

  it("has a row for each code, whose id is the fragment of the code's type, with the statuses the document gives it", () => {
    for (const [code, statuses] of codes) {
      const row = new RegExp(`<tr id="${code}"><td><a href="#${code}"><code>${code}</code></a></td><td>${[...statuses].sort().join(', ')}</td>`);
      expect(page, code).toMatch(row);
    }
    // Codes any request may get are listed too, documented or not.
    expect(page).toContain('<tr id="internal_error">');
    expect(page).toContain('<tr id="request_header_fields_too_large">');
  });

  it('gives every example answer the type /docs/errors#<code>, nothing else of the old placeholder', () => {
    const examples = problemExamples(document);
    expect(examples.length).toBeGreaterThan(20);
    for (const { code, type } of examples) expect(type).toBe(problemType(code));
    expect(JSON.stringify(document)).not.toContain('errors.meter.example');
  });
});

describe('errorPageHtml', () => {
  it('escapes its text and shows code spans as code', () => {
    const page = errorPageHtml(documentOf('management'));
    expect(page).toContain('<code>Bearer &#60;access_token&#62;</code>');
    expect(page).not.toMatch(/`/);
  });
});
