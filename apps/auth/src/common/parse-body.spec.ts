import { describe, expect, it } from 'vitest';
import { ProblemException } from '@meter/http';
import { z } from 'zod';
import { parseBody } from './parse-body';

const schema = z.strictObject({ name: z.string().min(1), scopes: z.array(z.string()) });

function errorsOf(body: unknown) {
  try {
    parseBody(schema, body);
  } catch (error) {
    expect(error).toBeInstanceOf(ProblemException);
    const problem = (error as ProblemException).toProblem();
    expect(problem.status).toBe(400);
    expect(problem.code).toBe('validation_failed');
    return problem.errors;
  }
  throw new Error('expected a validation error');
}

describe('parseBody', () => {
  it('returns the typed value of a valid body', () => {
    expect(parseBody(schema, { name: 'a', scopes: [] })).toEqual({ name: 'a', scopes: [] });
  });

  it('names missing, mistyped and unknown fields', () => {
    expect(errorsOf({ scopes: ['x', 5], extra: 1, other: 2 })).toEqual([
      { field: 'name', message: 'is required' },
      { field: 'scopes[1]', message: expect.stringMatching(/expected string/) },
      { field: 'extra', message: 'is not a known field' },
      { field: 'other', message: 'is not a known field' },
    ]);
  });

  it('names the body when it is absent or not an object', () => {
    expect(errorsOf(undefined)).toEqual([{ field: 'body', message: 'a JSON object is required' }]);
    expect(errorsOf(null)).toEqual([{ field: 'body', message: 'a JSON object is required' }]);
    expect(errorsOf(['a'])).toEqual([{ field: 'body', message: expect.stringMatching(/expected object/) }]);
  });

  it('never echoes the input in a message', () => {
    const errors = errorsOf({ name: 'x', scopes: 'secret-value-123' });
    expect(JSON.stringify(errors)).not.toContain('secret-value-123');
  });
});
