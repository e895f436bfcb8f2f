import { describe, expect, it } from 'vitest';
import { vaultProblem } from './vault-problem';

describe('vaultProblem', () => {
  it('maps validation errors to 400 validation_failed with the field list', () => {
    const problem = vaultProblem({ code: 'validation_failed', detail: 'x', errors: [{ field: 'data.token', message: 'is required' }] }).toProblem('r1');
    expect(problem).toMatchObject({ status: 400, code: 'validation_failed', errors: [{ field: 'data.token', message: 'is required' }], request_id: 'r1' });
  });

  it('maps not_found to 404', () => {
    expect(vaultProblem({ code: 'not_found', detail: 'no vault entry' }).toProblem()).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('maps in_use to 409 vault_entry_in_use naming the integrations', () => {
    const problem = vaultProblem({ code: 'in_use', detail: 'used by active integrations i1, i2', integration_ids: ['i1', 'i2'] }).toProblem();
    expect(problem).toMatchObject({ status: 409, code: 'vault_entry_in_use', integrations: [{ id: 'i1' }, { id: 'i2' }] });
  });

  it('maps deadline_exceeded (nothing was done) to 503 vault_unavailable with Retry-After', () => {
    const problem = vaultProblem({ code: 'deadline_exceeded', detail: 'late' });
    expect(problem.toProblem()).toMatchObject({ status: 503, code: 'vault_unavailable' });
    expect(problem.headers['Retry-After']).toBe('5');
  });

  it('hides the vault side of other failures behind a 500 without details', () => {
    for (const code of ['bad_request', 'unreadable', 'internal'] as const) {
      const problem = vaultProblem({ code, detail: 'inner detail' }).toProblem();
      expect(problem).toMatchObject({ status: 500, code: 'internal_error' });
      expect(problem.detail).not.toContain('inner detail');
    }
  });
});
