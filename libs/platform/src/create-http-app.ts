import 'reflect-metadata';
import type { DynamicModule, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { LogController, type FastifyBaseLogger, type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Bindings, ChildLoggerOptions, Logger } from 'pino';
import { DEFAULT_HTTP_REQUEST_TIMEOUT_MS } from '@meter/config';
import {
  answerClientError,
  answerExpectationFailed,
  installHttpHooks,
  lazyChildLogger,
  Metrics,
  PinoNestLogger,
  REQUEST_ID_HEADER,
  requestIdFor,
  sendProblem,
  toProblem,
} from '@meter/http';

/** The body limit of every HTTP process; larger bodies get 413 problem+json. */
export const BODY_LIMIT_BYTES = 64 * 1024;

export interface HttpAppOptions {
  /** A request whose headers and body have not all arrived by then gets 408 problem+json (HTTP_REQUEST_TIMEOUT_MS). */
  requestTimeoutMs?: number;
}

/** Nest on Fastify, set up the same way for every process and for in-process tests. */
export async function createHttpApp(module: Type | DynamicModule, logger: Logger, options: HttpAppOptions = {}): Promise<NestFastifyApplication> {
  const requestTimeout = options.requestTimeoutMs ?? DEFAULT_HTTP_REQUEST_TIMEOUT_MS;
  const adapter = new FastifyAdapter({
    loggerInstance: logger,
    bodyLimit: BODY_LIMIT_BYTES,
    // A body (or headers) that stops arriving must not hold a connection: Node checks every
    // connection each second and answers one past the limit with 408 (clientErrorHandler).
    requestTimeout,
    http: { requestTimeout, headersTimeout: requestTimeout, connectionsCheckingInterval: Math.min(1000, requestTimeout) },
    genReqId: requestIdFor,
    // Our own onResponse hook logs one line per request, without probe noise.
    logController: new LogController({ disableRequestLogging: true }),
    // request.log is made on first use: most requests never log below LOG_LEVEL.
    childLoggerFactory: (parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) => lazyChildLogger(parent as Logger, bindings, options),
    return503OnClosing: true,
    // Requests Node's parser refuses (a malformed header, a bad Content-Length, oversized headers) get problem+json too.
    clientErrorHandler: answerClientError,
    // Errors Fastify raises before routing (a target that does not decode) get problem+json too.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const { problem, headers } = toProblem(error, request.id);
      sendProblem(reply, problem, { ...headers, [REQUEST_ID_HEADER]: request.id });
    },
  });
  const app = await NestFactory.create<NestFastifyApplication>(module, adapter, {
    logger: new PinoNestLogger(logger),
    abortOnError: false,
  });
  installHttpHooks(app.getHttpAdapter().getInstance(), app.get(Metrics));
  // Node answers an unknown Expect with a bare 417 unless someone listens for it.
  app.getHttpServer().on('checkExpectation', answerExpectationFailed);
  return app;
}
