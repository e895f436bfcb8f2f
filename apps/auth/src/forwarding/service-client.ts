import { Logger } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/nats-core';
import type { z } from 'zod';
import { ProblemException } from '@meter/http';
import { requestRpc, RpcUnavailable } from '@meter/messaging';

/** A reply of the vault or the integrations service: its result, or its typed error. */
export type ServiceReply<R, E> = { ok: true; result: R } | { ok: false; error: E };

/** What auth knows of a service it forwards management routes to. */
export interface ForwardedService<E> {
  /** `vault`, `integrations`: in the logs and in the 502 code `<name>_bad_reply`. */
  name: string;
  subject(operation: string): string;
  timeoutMs: number;
  /** 503 with Retry-After: no answer in time (the request carried its deadline, so nothing was done). */
  unavailable(): ProblemException;
  /** The service's typed error as the management API's problem+json. */
  problem(error: E): ProblemException;
}

export interface CallOptions<R> {
  /** The answer when no process of the service runs at all (nothing subscribed); otherwise that is 503. */
  withoutService?: () => R;
}

/**
 * The one way auth forwards a route: one request over NATS with the
 * service's deadline, its reply checked by the operation's schema, and the
 * result returned or its error thrown as problem+json. No answer is 503, an
 * answer outside the schema 502.
 */
export class ServiceClient<E> {
  private readonly logger: Logger;

  constructor(
    private readonly nc: NatsConnection,
    private readonly service: ForwardedService<E>,
  ) {
    this.logger = new Logger(`${service.name}-client`);
  }

  async call<R>(operation: string, payload: unknown, schema: z.ZodType<ServiceReply<R, E>>, options: CallOptions<R> = {}): Promise<R> {
    let reply: ServiceReply<R, E>;
    try {
      reply = await requestRpc(this.nc, this.service.subject(operation), payload, schema, this.service.timeoutMs);
    } catch (error) {
      if (options.withoutService && error instanceof RpcUnavailable && error.noResponders) return options.withoutService();
      this.logger.warn(`${this.service.name} ${operation}: ${error instanceof Error ? error.message : String(error)}`);
      if (error instanceof RpcUnavailable) throw this.service.unavailable();
      throw new ProblemException(502, `${this.service.name}_bad_reply`, `the ${this.service.name} service gave an unexpected answer`);
    }
    if (!reply.ok) throw this.service.problem(reply.error);
    return reply.result;
  }
}
