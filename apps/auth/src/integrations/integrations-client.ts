import { Inject, Injectable, Logger } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/nats-core';
import type { z } from 'zod';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { integrationsSubject, type BusNames, type IntegrationsCaller, type IntegrationsError } from '@meter/contracts';
import { ProblemException } from '@meter/http';
import { BUS, NATS, requestRpc, RpcUnavailable } from '@meter/messaging';
import { integrationsProblem, integrationsUnavailable } from './integrations-problem';

type ReplySchema<R> = z.ZodType<{ ok: true; result: R } | { ok: false; error: IntegrationsError }>;

/**
 * Forwards a management route to the integrations service (exports,
 * webhooks) with the caller's organization and admin, and waits at most
 * INTEGRATIONS_REQUEST_TIMEOUT_MS. The answer's result, or its typed error as
 * problem+json; no answer is 503 `integrations_unavailable`, and since the
 * request carried its deadline, nothing was done.
 */
@Injectable()
export class IntegrationsClient {
  private readonly logger = new Logger('integrations-client');

  constructor(
    @Inject(NATS) private readonly nc: NatsConnection,
    @Inject(BUS) private readonly bus: BusNames,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async call<R>(operation: string, caller: IntegrationsCaller, payload: Record<string, unknown>, schema: ReplySchema<R>): Promise<R> {
    let reply: { ok: true; result: R } | { ok: false; error: IntegrationsError };
    try {
      reply = await requestRpc(
        this.nc,
        integrationsSubject(this.bus, operation),
        { ...payload, ...caller },
        schema,
        this.config.INTEGRATIONS_REQUEST_TIMEOUT_MS,
      );
    } catch (error) {
      this.logger.warn(`integrations ${operation}: ${error instanceof Error ? error.message : String(error)}`);
      if (error instanceof RpcUnavailable) throw integrationsUnavailable();
      throw new ProblemException(502, 'integrations_bad_reply', 'the integrations service gave an unexpected answer');
    }
    if (!reply.ok) throw integrationsProblem(reply.error);
    return reply.result;
  }
}
