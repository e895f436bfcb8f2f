import { describe, expect, it } from 'vitest';
import { ApiError, describeError, fieldErrorsFor, problemFrom } from './problem';

describe('problem answers in the console', () => {
  it('reads code, detail, errors and Retry-After of a problem+json body', () => {
    const error = problemFrom(
      400,
      { code: 'validation_failed', detail: 'name: must not be empty', errors: [{ field: 'name', message: 'must not be empty' }] },
      null,
    );
    expect(error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      detail: 'name: must not be empty',
      errors: [{ field: 'name', message: 'must not be empty' }],
    });
    expect(problemFrom(503, { code: 'vault_unavailable', detail: 'the vault does not answer' }, '5').retryAfter).toBe(5);
    expect(problemFrom(502, '<html>bad gateway</html>', null)).toMatchObject({ code: 'http_502', detail: 'The server answered 502.', errors: [] });
  });

  it('puts each field error beside its field, list items with their list, the rest in the general message', () => {
    const errors = [
      { field: 'data.access_key', message: 'must not be blank' },
      { field: 'allowed_cidrs.1', message: 'not a CIDR' },
      { field: 'allowed_cidrs.3', message: 'not a CIDR' },
      { field: 'colour', message: 'unknown field' },
      { field: 'body', message: 'must be an object' },
    ];
    expect(fieldErrorsFor(errors, ['access_key', 'allowed_cidrs'], 'data.')).toEqual({
      access_key: 'must not be blank',
      allowed_cidrs: 'not a CIDR; not a CIDR',
      '': 'colour: unknown field; must be an object',
    });
  });

  it('says what to do when a dependency is down or nothing answers', () => {
    expect(describeError(new ApiError(503, 'vault_unavailable', 'the vault does not answer', [], 5))).toBe(
      'A service the console needs is unavailable: the vault does not answer. Try again in 5 s.',
    );
    expect(describeError(new ApiError(0, 'network', 'fetch failed'))).toMatch(/does not answer/);
    expect(describeError(new ApiError(404, 'not_found', 'no credential with this id'))).toBe('no credential with this id');
  });
});
