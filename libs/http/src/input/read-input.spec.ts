import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ProblemException } from '../problem';
import { checkInput, checkQuery, fieldPath, readInput } from './read-input';

const schema = z.strictObject({
  name: z.string({ error: 'must be a string' }),
  place: z.strictObject({ bucket: z.string(), prefix: z.string({ error: 'must be a string' }).optional() }).optional(),
});

describe('readInput', () => {
  it('gives the parsed value', () => {
    expect(readInput(schema, { name: 'a' })).toEqual({ ok: true, value: { name: 'a' } });
  });

  it('names a missing field "is required" and uses the schema’s message otherwise', () => {
    expect(readInput(schema, { place: { bucket: 'b', prefix: 1 } })).toEqual({
      ok: false,
      errors: [
        { field: 'name', message: 'is required' },
        { field: 'place.prefix', message: 'must be a string' },
      ],
    });
  });

  it('names unknown fields last, or first within their object when asked', () => {
    const body = { colour: 'red', name: 1, place: { size: 2, bucket: 3 } };
    expect(readInput(schema, body)).toMatchObject({
      errors: [{ field: 'name' }, { field: 'place.bucket' }, { field: 'place.size' }, { field: 'colour' }],
    });
    expect(readInput(schema, body, { unknownFieldsFirst: true })).toMatchObject({
      errors: [{ field: 'colour' }, { field: 'name' }, { field: 'place.size' }, { field: 'place.bucket' }],
    });
  });

  it('lets the caller say what an unknown field is told', () => {
    expect(readInput(schema, { name: 'a', id: 1 }, { unknownField: (field) => `${field} cannot be changed` })).toEqual({
      ok: false,
      errors: [{ field: 'id', message: 'id cannot be changed' }],
    });
  });

  it("takes an unknown field's message from its object schema when asked and the schema gives one", () => {
    const named = z.strictObject(
      { data: z.strictObject({ a: z.string() }, { error: (issue) => (issue.code === 'unrecognized_keys' ? 'is not a field of this type' : undefined) }) },
      { error: (issue) => (issue.code === 'invalid_type' ? 'must be a JSON object' : undefined) },
    );
    const body = { id: 1, data: { a: 'x', b: 2 } };
    expect(readInput(named, body, { unknownFieldsNamedBySchema: true })).toEqual({
      ok: false,
      errors: [
        { field: 'data.b', message: 'is not a field of this type' },
        { field: 'id', message: 'is not a known field' },
      ],
    });
    expect(readInput(named, body)).toMatchObject({ errors: [{ message: 'is not a known field' }, { message: 'is not a known field' }] });
  });

  it('names the body when the input is not an object', () => {
    expect(readInput(schema, [])).toMatchObject({ ok: false, errors: [{ field: 'body' }] });
  });
});

describe('checkInput', () => {
  it('throws 400 validation_failed with the errors', () => {
    let thrown: unknown;
    try {
      checkInput(schema, {});
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ProblemException);
    expect((thrown as ProblemException).toProblem()).toMatchObject({
      status: 400,
      code: 'validation_failed',
      errors: [{ field: 'name', message: 'is required' }],
    });
  });
});

describe('checkQuery', () => {
  it('gives the parsed query, or throws 400 naming its first bad parameter only', () => {
    const query = z.object({ a: z.string({ error: 'must be a string' }), b: z.string({ error: 'must be a string' }).optional() });
    expect(checkQuery(query, { a: 'x', other: '1' })).toEqual({ a: 'x' });
    let thrown: unknown;
    try {
      checkQuery(query, { a: ['1', '2'], b: ['3', '4'] });
    } catch (error) {
      thrown = error;
    }
    expect((thrown as ProblemException).toProblem()).toMatchObject({ status: 400, errors: [{ field: 'a', message: 'must be a string' }] });
    expect((thrown as ProblemException).toProblem().errors).toHaveLength(1);
  });
});

describe('fieldPath', () => {
  it('writes array indexes in brackets and nested keys with dots', () => {
    expect(fieldPath(['allowed_cidrs', 2])).toBe('allowed_cidrs[2]');
    expect(fieldPath(['data', 'region'])).toBe('data.region');
    expect(fieldPath([])).toBe('');
  });
});
