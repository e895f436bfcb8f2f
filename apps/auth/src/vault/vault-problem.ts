import { notFound, ProblemException, validationFailed } from '@meter/http';
import type { VaultError } from '@meter/contracts';

/** 503 `vault_unavailable`: the vault did not answer in time, or refused work past its deadline; either way nothing was done. */
export const vaultUnavailable = () =>
  new ProblemException(503, 'vault_unavailable', 'the vault service is not reachable right now; try again shortly', {}, { 'Retry-After': '5' });

/** The vault's typed errors as the problem+json of the management API (docs/vault.md). */
export function vaultProblem(error: VaultError): ProblemException {
  switch (error.code) {
    case 'validation_failed':
      return validationFailed(error.errors);
    case 'not_found':
      return notFound(error.detail);
    case 'in_use':
      return new ProblemException(409, 'vault_entry_in_use', error.detail, { integrations: error.integration_ids.map((id) => ({ id })) });
    case 'deadline_exceeded':
      return vaultUnavailable();
    default:
      // bad_request, unreadable and internal are the platform's fault, not the caller's.
      return new ProblemException(500, 'internal_error', 'the vault could not complete the request; quote the request id when reporting it');
  }
}
