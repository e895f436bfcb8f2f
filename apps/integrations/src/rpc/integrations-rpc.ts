import { Inject, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/nats-core';
import { Counter } from 'prom-client';
import type { z } from 'zod';
import { INTEGRATIONS_QUEUE_GROUP, integrationsSubject, type BusNames } from '@meter/contracts';
import { Metrics } from '@meter/http';
import { BUS, NATS, RpcServer, type Deadline } from '@meter/messaging';

type Reply = { ok: true; result: unknown } | { ok: false; error: { code: string; detail: string } };

/**
 * The integrations service's request/reply interface: the management API
 * (auth) forwards the integration and webhook routes here. Each feature
 * registers its operations in `onApplicationBootstrap`; a handler throws an
 * `IntegrationsFailure` for a typed error. Requests are never logged.
 */
@Injectable()
export class IntegrationsRpc implements BeforeApplicationShutdown {
  private readonly server: RpcServer;

  constructor(
    @Inject(NATS) nc: NatsConnection,
    @Inject(BUS) private readonly bus: BusNames,
    @Inject(Metrics) metrics: Metrics,
  ) {
    const requests = new Counter({
      name: 'meter_integrations_requests_total',
      help: 'Management requests over NATS by operation and outcome (ok or the error code)',
      labelNames: ['operation', 'outcome'] as const,
      registers: [metrics.registry],
    });
    const logger = new Logger('integrations-rpc');
    this.server = new RpcServer(nc, {
      queue: INTEGRATIONS_QUEUE_GROUP,
      service: 'integrations service',
      log: { error: (m) => logger.error(m), warn: (m) => logger.warn(m) },
      onAnswer: (operation, outcome) => requests.inc({ operation, outcome }),
    });
  }

  /** Answers `integrations.rpc.<operation>`. */
  serve<S extends z.ZodType>(
    operation: string,
    schema: S,
    replySchema: z.ZodType<Reply>,
    handle: (request: z.infer<S>, deadline: Deadline) => Promise<unknown>,
  ) {
    this.server.serve(operation, integrationsSubject(this.bus, operation), schema, replySchema, handle);
  }

  async beforeApplicationShutdown() {
    await this.server.drain();
  }
}
