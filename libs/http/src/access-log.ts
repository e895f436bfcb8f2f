import type { FastifyRequest } from 'fastify';

/** Where a request's own access-log fields wait for its "request completed" line. */
const ACCESS_LOG_FIELDS = Symbol('accessLogFields');

type RequestWithFields = FastifyRequest & { [ACCESS_LOG_FIELDS]?: Record<string, string> };

/**
 * Sets the fields the request's access-log line adds (who made it: the
 * gateway's organization and credential id), replacing any set before.
 * Never a secret: the line is for operators.
 */
export function setAccessLogFields(request: FastifyRequest, fields: Record<string, string>): void {
  (request as RequestWithFields)[ACCESS_LOG_FIELDS] = fields;
}

export function accessLogFieldsOf(request: FastifyRequest): Record<string, string> | undefined {
  return (request as RequestWithFields)[ACCESS_LOG_FIELDS];
}
