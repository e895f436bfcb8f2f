import type { IntegrationsError } from '@meter/contracts';
import { notFound, ProblemException, validationFailed } from '@meter/http';

/** 503 `integrations_unavailable`: no answer in time, or work refused past its deadline; either way nothing was done. */
export const integrationsUnavailable = () =>
  new ProblemException(503, 'integrations_unavailable', 'the integrations service is not reachable right now; try again shortly', {}, { 'Retry-After': '5' });

/** The integrations service's typed errors as the problem+json of the management API. */
export function integrationsProblem(error: IntegrationsError): ProblemException {
  switch (error.code) {
    case 'validation_failed':
      return validationFailed(error.errors);
    case 'not_found':
      return notFound(error.detail);
    case 'conflict':
      return new ProblemException(409, 'conflict', error.detail);
    case 'destination_check_failed':
      return new ProblemException(422, 'destination_check_failed', error.detail);
    case 'vault_unavailable':
      return new ProblemException(503, 'vault_unavailable', 'the vault service is not reachable right now; try again shortly', {}, { 'Retry-After': '5' });
    case 'deadline_exceeded':
      return integrationsUnavailable();
    default:
      // bad_request and internal are the platform's fault, not the caller's.
      return new ProblemException(500, 'internal_error', 'the integrations service could not complete the request; quote the request id when reporting it');
  }
}
