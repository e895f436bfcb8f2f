import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { PROBLEM_CONTENT_TYPE, ProblemException, validationFailed } from './problem';
import { REQUEST_ID_HEADER } from './request-id';

/**
 * The problem (contract 7) for a request Node's HTTP parser refused before
 * any route saw it: a malformed header or request line, a bad Content-Length,
 * headers over the size limit, or a request that took too long to arrive.
 */
export function clientErrorProblem(error: NodeJS.ErrnoException): ProblemException {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ProblemException(431, 'request_header_fields_too_large', 'the request headers exceed the size limit');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ProblemException(408, 'request_timeout', 'the request did not arrive in time');
    default:
      return validationFailed([{ field: 'request', message: 'is not valid HTTP/1.1 (request line, headers or Content-Length)' }]);
  }
}

/**
 * Fastify's `clientErrorHandler`: answers such a request with problem+json
 * instead of Fastify's plain JSON, then closes the connection (the parser's
 * state is lost, so nothing more can be read from it).
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const problem = clientErrorProblem(error);
    const requestId = randomUUID();
    const body = JSON.stringify(problem.toProblem(requestId));
    const status = problem.getStatus();
    socket.write(
      `HTTP/1.1 ${status} ${problem.toProblem().title}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n${REQUEST_ID_HEADER}: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
