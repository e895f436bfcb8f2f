import { describe, expect, it } from 'vitest';
import { parseVerifiedBody } from './json-body';

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
