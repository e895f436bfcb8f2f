import { Controller, Get, Header, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Metrics } from './metrics';
import { PROBLEM_CONTENT_TYPE } from './problem';
import { ReadinessRegistry } from './readiness';

const PROBLEM_MEMBERS = new Set(['type', 'title', 'status', 'detail', 'code', 'request_id', 'instance']);

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

  @Get('readyz')
  async readyz(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const { ready, checks, details } = await this.readiness.report();
    if (ready) {
      const degraded = Object.values(checks).some((c) => c.status === 'degraded');
      return reply.send({ ...details, status: degraded ? 'degraded' : 'ready', checks });
    }
    const failed = Object.entries(checks).filter(([, c]) => c.status === 'down');
    return reply
      .status(503)
      .type(PROBLEM_CONTENT_TYPE)
      .send({
        type: 'https://errors.meter.example/not_ready',
        title: 'Service Unavailable',
        status: 503,
        detail: `not ready: ${failed.map(([name, c]) => `${name} (${c.error})`).join(', ')}`,
        code: 'not_ready',
        request_id: request.id,
        failed: failed.map(([name]) => name),
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
