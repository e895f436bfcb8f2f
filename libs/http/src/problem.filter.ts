import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Inject, Injectable, Optional } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { problemType } from './errors/problem-type';
import { capEchoed, PROBLEM_CONTENT_TYPE, ProblemException, titleFor, type Problem } from './problem';
import { unavailableProblem, UnavailableDependencies, type UnavailableDependency } from './unavailable-dependencies';

const CODE_BY_STATUS: Record<number, string> = {
  400: 'validation_failed',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

interface FastifyLikeError {
  statusCode?: number;
  code?: string;
  message?: string;
}

export interface ProblemAnswer {
  problem: Problem;
  headers: Record<string, string>;
  /** Set when the error meant a dependency was unavailable (503 with Retry-After). */
  unavailable?: UnavailableDependency;
}

/**
 * Turns any thrown value into an RFC 9457 problem+json answer. An
 * error no handler turned into a problem is a 503 with `Retry-After` when
 * one of `dependencies` recognises it as its outage, a 500 otherwise.
 */
export function toProblem(error: unknown, requestId?: string, dependencies?: Pick<UnavailableDependencies, 'classify'>): ProblemAnswer {
  if (error instanceof ProblemException) {
    return { problem: error.toProblem(requestId), headers: error.headers };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const problem = fromStatus(status, messageOf(error.getResponse()) ?? error.message, requestId);
    // Nest's own 400s come from parsing the body (broken JSON, poisoned keys).
    return { problem: status === 400 ? withErrors(problem, 'body', problem.detail) : problem, headers: {} };
  }
  const fastifyError = error as FastifyLikeError;
  if (typeof fastifyError?.statusCode === 'number' && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return { problem: fromFastify(fastifyError, requestId), headers: {} };
  }
  const unavailable = dependencies?.classify(error);
  if (unavailable) {
    const problem = unavailableProblem(unavailable);
    return { problem: problem.toProblem(requestId), headers: problem.headers, unavailable };
  }
  return {
    problem: fromStatus(500, 'an unexpected error occurred; quote the request id when reporting it', requestId, 'internal_error'),
    headers: {},
  };
}

function fromFastify(error: FastifyLikeError, requestId?: string): Problem {
  const status = error.statusCode as number;
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return withErrors(fromStatus(400, 'the body is not valid JSON', requestId, 'validation_failed'), 'body', 'is not valid JSON');
    case 'FST_ERR_BAD_URL':
      return withErrors(fromStatus(400, 'the request target is not valid (bad percent-encoding)', requestId, 'validation_failed'), 'path', 'is not valid');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return fromStatus(413, 'the body exceeds the size limit', requestId, 'payload_too_large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return fromStatus(415, 'unsupported content type; send application/json', requestId, 'unsupported_media_type');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return uriTooLong().toProblem(requestId);
    default: {
      // Fastify's own 400s (e.g. a broken JSON body) carry a message safe to echo.
      const problem = fromStatus(status, error.message ?? titleFor(status), requestId);
      return status === 400 ? withErrors(problem, 'body', problem.detail) : problem;
    }
  }
}

/** A path parameter longer than the router takes (Fastify's maxParamLength): a fixed detail, nothing echoed. */
export const uriTooLong = () => new ProblemException(414, 'uri_too_long', 'a segment of the path is too long');

function withErrors(problem: Problem, field: string, message: string): Problem {
  return { ...problem, errors: [{ field, message }] };
}

function fromStatus(status: number, detail: string, requestId?: string, code?: string): Problem {
  const stableCode = code ?? CODE_BY_STATUS[status] ?? (status >= 500 ? 'internal_error' : 'bad_request');
  return {
    type: problemType(stableCode),
    title: titleFor(status),
    status,
    detail: capEchoed(detail),
    code: stableCode,
    request_id: requestId,
  };
}

function messageOf(response: unknown): string | undefined {
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown })?.message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : undefined;
}

export function sendProblem(reply: FastifyReply, problem: Problem, headers: Record<string, string> = {}): void {
  void reply.status(problem.status).headers(headers).type(PROBLEM_CONTENT_TYPE).send(problem);
}

@Catch()
@Injectable()
export class ProblemFilter implements ExceptionFilter {
  constructor(@Optional() @Inject(UnavailableDependencies) private readonly dependencies?: UnavailableDependencies) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const { problem, headers, unavailable } = toProblem(error, request?.id, this.dependencies);
    // An outage is logged once by its dependency, not once per request it refuses.
    if (unavailable) unavailable.refused?.(error);
    else if (problem.status >= 500) request?.log?.error({ err: error }, 'request failed');
    sendProblem(reply, problem, headers);
  }
}
