import { describe, expect, it } from 'vitest';
import { integrationsProblem } from './integrations-problem';

describe('integrationsProblem', () => {
  it.each([
    [{ code: 'validation_failed' as const, detail: 'x', errors: [{ field: 'format', message: 'must be csv, ndjson or parquet' }] }, 400, 'validation_failed'],
    [{ code: 'not_found' as const, detail: 'no integration with this id in the organization' }, 404, 'not_found'],
    [{ code: 'conflict' as const, detail: 'already' }, 409, 'conflict'],
    [{ code: 'destination_check_failed' as const, detail: 'AccessDenied' }, 422, 'destination_check_failed'],
    [{ code: 'deadline_exceeded' as const, detail: 'late' }, 503, 'integrations_unavailable'],
    [{ code: 'vault_unavailable' as const, detail: 'no answer' }, 503, 'vault_unavailable'],
    [{ code: 'internal' as const, detail: 'secret internals' }, 500, 'internal_error'],
    [{ code: 'bad_request' as const, detail: 'malformed' }, 500, 'internal_error'],
  ])('%j -> %i %s', (error, status, code) => {
    const problem = integrationsProblem(error).toProblem('r1');
    expect(problem).toMatchObject({ status, code });
    if (status >= 500) expect(problem.detail).not.toContain(error.detail);
  });

  it('keeps the field errors and the storage detail', () => {
    expect(
      integrationsProblem({ code: 'validation_failed', detail: 'x', errors: [{ field: 'schedule.at', message: 'must be HH:MM' }] }).toProblem('r'),
    ).toMatchObject({
      errors: [{ field: 'schedule.at', message: 'must be HH:MM' }],
    });
    expect(integrationsProblem({ code: 'destination_check_failed', detail: 'the storage answered NoSuchBucket' }).toProblem('r').detail).toBe(
      'the storage answered NoSuchBucket',
    );
  });
});
