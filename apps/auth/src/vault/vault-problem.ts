import { notFound, ProblemException, validationFailed } from '@meter/http';
import type { VaultError } from '@meter/contracts';

/** The vault's typed errors as the problem+json of contract section 7. */
export function vaultProblem(error: VaultError): ProblemException {
  switch (error.code) {
    case 'validation_failed':
      return validationFailed(error.errors);
    case 'not_found':
      return notFound(error.detail);
    default:
      // bad_request, unreadable and internal are the platform's fault, not the caller's.
      return new ProblemException(500, 'internal_error', 'the vault could not complete the request; quote the request id when reporting it');
  }
}
