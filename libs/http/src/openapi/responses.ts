import type { ResponseConfig, ZodRequestBody } from '@asteasolutions/zod-to-openapi';
import type { HeadersObject } from 'openapi3-ts/oas31';
import type { z } from 'zod';
import { DEFAULT_HTTP_REQUEST_TIMEOUT_MS } from '@meter/config';
import { clientErrorProblem, expectationFailed } from '../client-error';
import { PROBLEM_CONTENT_TYPE, ProblemException } from '../problem';
import { uriTooLong } from '../problem.filter';
import { problemSchema } from '../problem.schema';
import { unavailableProblem, type UnavailableDependency } from '../unavailable-dependencies';

/** The request id the example answers show: a minted one is a UUID, unless the caller sent its own X-Request-Id. */
export const EXAMPLE_REQUEST_ID = '5f0c2d7e-3b8a-4e61-9c42-8a1d7e6b0f93';

export interface Example<T> {
  summary: string;
  value: T;
}

/** One answer a problem response documents, made by the code that gives it. */
export interface ProblemExample {
  summary: string;
  problem: ProblemException;
}

/**
 * The problem a validator throws for `run`, so an example shows the real
 * answer (field names and messages included) rather than a copy of it.
 */
export function problemThrownBy(run: () => unknown): ProblemException {
  try {
    run();
  } catch (error) {
    if (error instanceof ProblemException) return error;
    throw error;
  }
  throw new Error('the example input was accepted: it shows no problem');
}

/** A JSON answer: its schema and named examples of what the code sends (typed by the schema's output). */
export function jsonResponse<S extends z.ZodType>(
  description: string,
  schema: S,
  examples: Record<string, Example<z.output<S>>>,
  headers?: HeadersObject,
): ResponseConfig {
  return { description, ...(headers ? { headers } : {}), content: { 'application/json': { schema, examples } } };
}

/** A JSON request body: its schema and named examples of what a client sends (typed by the schema's input). */
export function jsonBody<S extends z.ZodType>(description: string, schema: S, examples: Record<string, Example<z.input<S>>>): ZodRequestBody {
  return { description, required: true, content: { 'application/json': { schema, examples } } };
}

/** A problem+json answer with one example per code (or per case) it can carry. */
export function problemResponse(description: string, examples: Record<string, ProblemExample>, headers?: HeadersObject): ResponseConfig {
  return {
    description,
    ...(headers ? { headers } : {}),
    content: {
      [PROBLEM_CONTENT_TYPE]: {
        schema: problemSchema,
        examples: Object.fromEntries(
          Object.entries(examples).map(([name, { summary, problem }]) => [name, { summary, value: problem.toProblem(EXAMPLE_REQUEST_ID) }]),
        ),
      },
    },
  };
}

/**
 * The answer of a request refused for want of a server the process needs (registered with
 * `UnavailableDependencies`): 503 with its code and `Retry-After`, made as the problem filter makes it.
 */
export function unavailableResponse(
  description: string,
  summary: string,
  dependency: Pick<UnavailableDependency, 'code' | 'detail' | 'retryAfterSeconds'>,
): ResponseConfig {
  return problemResponse(
    `\`${dependency.code}\`: ${description}`,
    { [dependency.code]: { summary, problem: unavailableProblem(dependency) } },
    RETRY_AFTER_HEADER,
  );
}

/** An answer without a body (204). */
export const noContent = (description: string): ResponseConfig => ({ description });

/** `Retry-After` of a 429 or 503. */
export const RETRY_AFTER_HEADER: HeadersObject = {
  'Retry-After': { required: true, description: 'Whole seconds to wait before retrying (>= 1).', schema: { type: 'integer', minimum: 1 }, example: 5 },
};

/**
 * What the platform answers for any body before a route sees it
 * (createHttpApp: 64 KiB, JSON only); added to every operation with a body.
 */
export const BODY_PROBLEMS: Record<number, ResponseConfig> = {
  413: problemResponse('`payload_too_large`: the body is over 64 KiB.', {
    payload_too_large: { summary: 'A body over 64 KiB', problem: new ProblemException(413, 'payload_too_large', 'the body exceeds the size limit') },
  }),
  415: problemResponse('`unsupported_media_type`: the body is not `application/json`.', {
    unsupported_media_type: {
      summary: 'Content-Type: text/plain',
      problem: new ProblemException(415, 'unsupported_media_type', 'unsupported content type; send application/json'),
    },
  }),
};

/**
 * What the platform answers for any request before a route sees it (createHttpApp, whatever
 * the process): added to every operation of every API.
 */
export const REQUEST_PROBLEMS: Record<number, ResponseConfig> = {
  408: problemResponse(
    `\`request_timeout\`: the headers and body did not all arrive within HTTP_REQUEST_TIMEOUT_MS (${DEFAULT_HTTP_REQUEST_TIMEOUT_MS / 1000} s by default); the connection is closed.`,
    {
      request_timeout: {
        summary: 'A body that stopped arriving',
        problem: clientErrorProblem(Object.assign(new Error('request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' })),
      },
    },
  ),
  417: problemResponse('`expectation_failed`: an `Expect` header other than `100-continue`, the only expectation supported.', {
    expectation_failed: { summary: 'Expect: 200-ok', problem: expectationFailed() },
  }),
};

/** The router's answer to a path parameter over its 100 characters (Fastify's maxParamLength): added to every operation with one. */
export const PATH_PARAMETER_PROBLEMS: Record<number, ResponseConfig> = {
  414: problemResponse('`uri_too_long`: a path parameter is over 100 characters; the path is not repeated.', {
    uri_too_long: { summary: 'A 3,000-character id', problem: uriTooLong() },
  }),
};
