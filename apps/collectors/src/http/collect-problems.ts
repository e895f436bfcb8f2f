import { COLLECTOR_FORMATS } from '@meter/contracts';
import { ProblemException } from '@meter/http';

/** Seconds a network server is asked to wait when JetStream or auth did not answer. */
export const RETRY_AFTER_SECONDS = 2;

/** The refusals of an HTTP uplink: the route throws them, the API document shows them. */
export const collectProblems = {
  unknownFormat: (format: string) => new ProblemException(404, 'not_found', `no uplink route for format ${format}; use one of ${COLLECTOR_FORMATS.join(', ')}`),
  wrongFormat: (format: string) =>
    new ProblemException(403, 'wrong_format', `this collector credential is for format ${format}; post to /collect/v1/${format}`),
  undecodable: (reason: string) => new ProblemException(400, 'undecodable_uplink', reason),
  unauthorized: (detail: string) => new ProblemException(401, 'unauthorized', detail, {}, { 'WWW-Authenticate': 'Bearer' }),
  throttled: (retryAfterSeconds: number) =>
    new ProblemException(
      429,
      'too_many_failures',
      'too many failed sign-ins from this address; try again later',
      { retry_after: retryAfterSeconds },
      { 'Retry-After': String(retryAfterSeconds) },
    ),
  authUnavailable: () =>
    new ProblemException(
      503,
      'auth_unavailable',
      'the credential check is unavailable; try again after Retry-After',
      {},
      {
        'Retry-After': String(RETRY_AFTER_SECONDS),
      },
    ),
  jetstreamUnavailable: () =>
    new ProblemException(
      503,
      'jetstream_unavailable',
      'the message bus did not store the uplink; send it again after Retry-After (a repeat is stored once)',
      {},
      {
        'Retry-After': String(RETRY_AFTER_SECONDS),
      },
    ),
};
