import { HttpException } from '@nestjs/common';
import { problemType } from './errors/problem-type';
import type { FieldError, Problem } from './problem.schema';

export type { FieldError, Problem } from './problem.schema';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  417: 'Expectation Failed',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function titleFor(status: number): string {
  return TITLES[status] ?? (status >= 500 ? 'Server Error' : 'Client Error');
}

/** The most of a request's own text (a path, a header) a problem's detail repeats. */
export const ECHO_LIMIT = 200;

/** Text from the request, cut to ECHO_LIMIT characters, so an odd request never gets a large answer. */
export function capEchoed(text: string): string {
  const characters = [...text];
  return characters.length <= ECHO_LIMIT ? text : `${characters.slice(0, ECHO_LIMIT).join('')}… (${characters.length} characters)`;
}

/** Thrown anywhere in a request; the problem filter renders it as is. */
export class ProblemException extends HttpException {
  constructor(
    status: number,
    readonly code: string,
    readonly detail: string,
    readonly extensions: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail, status);
  }

  toProblem(requestId?: string): Problem {
    return {
      type: problemType(this.code),
      title: titleFor(this.getStatus()),
      status: this.getStatus(),
      detail: this.detail,
      code: this.code,
      request_id: requestId,
      ...this.extensions,
    };
  }
}

export const validationFailed = (errors: FieldError[]) =>
  new ProblemException(400, 'validation_failed', errors.map((e) => `${e.field}: ${e.message}`).join('; ') || 'the request is not valid', { errors });

export const notFound = (detail: string) => new ProblemException(404, 'not_found', detail);
