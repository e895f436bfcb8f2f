import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { isWellFormedMediaType, parseVerifiedBody } from './json-body';

/** Fastify's own Content-Type parser: the pipeline must let exactly what it refuses reach authentication. */
const ContentType = createRequire(__filename)('fastify/lib/content-type') as { from(value: string): { isValid: boolean } };

describe('parseVerifiedBody', () => {
  it('parses JSON and +json bodies', () => {
    expect(parseVerifiedBody(Buffer.from('{"a":1}'), 'application/json; charset=utf-8')).toEqual({ ok: true, body: { a: 1 } });
    expect(parseVerifiedBody(Buffer.from('[1]'), 'application/problem+json')).toEqual({ ok: true, body: [1] });
  });

  it('treats an empty body as none, whatever its type', () => {
    expect(parseVerifiedBody(undefined, undefined)).toEqual({ ok: true, body: undefined });
    expect(parseVerifiedBody(Buffer.alloc(0), 'text/plain')).toEqual({ ok: true, body: undefined });
  });

  it('answers broken JSON with 400 and poisoned keys too', () => {
    expect(parseVerifiedBody(Buffer.from('{"a":'), 'application/json')).toMatchObject({ ok: false, status: 400 });
    expect(parseVerifiedBody(Buffer.from('{"__proto__":{"x":1}}'), 'application/json')).toMatchObject({ ok: false, status: 400 });
  });

  it('refuses other media types that carry content with 415', () => {
    expect(parseVerifiedBody(Buffer.from('a=1'), 'application/x-www-form-urlencoded')).toMatchObject({ ok: false, status: 415 });
    expect(parseVerifiedBody(Buffer.from('{}'), undefined)).toMatchObject({ ok: false, status: 415 });
  });
});

describe('isWellFormedMediaType', () => {
  it.each([
    'application/json',
    'application/json; charset=utf-8',
    ' Application/JSON ',
    'text/plain;',
    'application/problem+json;charset="utf-8"',
    'application/x-www-form-urlencoded',
    '',
    ' ',
    'json',
    ';;;',
    'undefined',
    'application /json',
    'application/ json',
    '/json',
    'application/',
    'application/json/x',
    'a(b)/c',
    'application/json ; x=1',
    'text/plain; a="b;c"',
  ])('%j as Fastify judges it', (value) => {
    expect(isWellFormedMediaType(value)).toBe(ContentType.from(value).isValid);
  });
});
