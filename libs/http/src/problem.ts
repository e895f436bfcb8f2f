import { HttpException } from '@nestjs/common';

export interface FieldError {
  field: string;
  message: string;
}

/** RFC 9457 body with the stable `code` of contract section 7. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  request_id?: string;
  errors?: FieldError[];
  [extension: string]: unknown;
}

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
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function titleFor(status: number): string {
  return TITLES[status] ?? (status >= 500 ? 'Server Error' : 'Client Error');
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
      type: `https://errors.meter.example/${this.code}`,
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
