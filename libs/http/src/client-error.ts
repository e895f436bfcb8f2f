import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { PROBLEM_CONTENT_TYPE, ProblemException, validationFailed } from './problem';
import { REQUEST_ID_HEADER, requestIdFor } from './request-id';

/**
 * The problem+json answer for a request Node's HTTP parser refused before
 * any route saw it: a malformed header or request line, a bad Content-Length,
 * headers over the size limit, or a request that took too long to arrive.
 */
export function clientErrorProblem(error: NodeJS.ErrnoException): ProblemException {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ProblemException(431, 'request_header_fields_too_large', 'the request headers exceed the size limit');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ProblemException(408, 'request_timeout', 'the request (headers and body) did not arrive in time');
    default:
      return validationFailed([{ field: 'request', message: 'is not valid HTTP/1.1 (request line, headers or Content-Length)' }]);
  }
}

/** An `Expect` header other than `100-continue`: the only expectation HTTP/1.1 defines. */
export const expectationFailed = () =>
  new ProblemException(417, 'expectation_failed', 'the Expect header asks for something this server does not do; only 100-continue is supported');

/**
 * Fastify's `clientErrorHandler`: answers such a request with problem+json
 * instead of Fastify's plain JSON, then closes the connection (the parser's
 * state is lost, so nothing more can be read from it). Nothing is written
 * when an answer has already begun on the socket (a request that timed out
 * while its answer was being sent), since it would corrupt that answer.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const answering = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
  if (socket.writable && !answering?.headersSent) {
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

/**
 * The Node server's `checkExpectation` listener: Node would answer a bare
 * 417; this one is problem+json with a request id. The request never
 * reaches a route.
 */
export function answerExpectationFailed(request: IncomingMessage, response: ServerResponse): void {
  const requestId = requestIdFor(request);
  const problem = expectationFailed().toProblem(requestId);
  const body = JSON.stringify(problem);
  response.writeHead(problem.status, {
    'Content-Type': `${PROBLEM_CONTENT_TYPE}; charset=utf-8`,
    'Content-Length': Buffer.byteLength(body),
    [REQUEST_ID_HEADER]: requestId,
    Connection: 'close',
  });
  response.end(body);
}
