import type { ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { ProblemException, problemResponse } from '@meter/http';
import { integrationsProblem } from './integrations-problem';

/** The 500 and 502 of every route the integrations service answers (IntegrationsClient); each route adds its own 503. */
export const INTEGRATIONS_SERVICE_FAILURES: Record<number, ResponseConfig> = {
  500: problemResponse('`internal_error`: the integrations service could not complete the request; quote the request id when reporting it.', {
    internal_error: { summary: 'The integrations service failed', problem: integrationsProblem({ code: 'internal', detail: 'failed' }) },
  }),
  502: problemResponse('`integrations_bad_reply`: the integrations service gave an answer the API could not use.', {
    integrations_bad_reply: {
      summary: 'An answer outside the contract',
      problem: new ProblemException(502, 'integrations_bad_reply', 'the integrations service gave an unexpected answer'),
    },
  }),
};
