import { Controller, Get, Header, Inject, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { problemType } from './errors/problem-type';
import { Metrics } from './metrics';
import { PROBLEM_CONTENT_TYPE } from './problem';
import { ReadinessRegistry } from './readiness';

const PROBLEM_MEMBERS = new Set(['type', 'title', 'status', 'detail', 'code', 'request_id', 'instance']);

/** Operations, not API: kept out of the published OpenAPI documents (docs/operations.md lists them). */
@ApiExcludeController()
@Controller()
export class ProbesController {
  constructor(
    @Inject(ReadinessRegistry) private readonly readiness: ReadinessRegistry,
    @Inject(Metrics) private readonly metrics: Metrics,
  ) {}

  @Get('healthz')
  healthz() {
    return { status: 'ok' };
  }

  /** 200 while the process can serve (`ready`, or `degraded` naming what it does without); 503 when it cannot. */
  @Get('readyz')
  async readyz(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const { ready, status, checks, failed, degraded, details } = await this.readiness.report();
    if (ready) return reply.send({ ...details, status, degraded, checks });
    return reply
      .status(503)
      .header('Retry-After', '5')
      .type(PROBLEM_CONTENT_TYPE)
      .send({
        type: problemType('not_ready'),
        title: 'Service Unavailable',
        status: 503,
        detail: `not ready: ${failed.map((name) => `${name} (${checks[name].error})`).join(', ')}`,
        code: 'not_ready',
        request_id: request.id,
        failed,
        degraded,
        checks,
        // Extensions never replace the RFC 9457 members above.
        ...Object.fromEntries(Object.entries(details).filter(([key]) => !PROBLEM_MEMBERS.has(key))),
      });
  }

  @Get('metrics')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  async metricsText() {
    return this.metrics.registry.metrics();
  }
}
