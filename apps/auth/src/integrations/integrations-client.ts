import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/nats-core';
import type { z } from 'zod';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { integrationsSubject, type BusNames, type IntegrationsCaller, type IntegrationsError } from '@meter/contracts';
import { BUS, NATS } from '@meter/messaging';
import { ServiceClient, type CallOptions, type ServiceReply } from '../forwarding/service-client';
import { integrationsProblem, integrationsUnavailable } from './integrations-problem';

/**
 * Forwards a management route to the integrations service (exports,
 * webhooks) with the caller's organization and admin, and waits at most
 * INTEGRATIONS_REQUEST_TIMEOUT_MS: the result, its typed error as
 * problem+json, or 503 `integrations_unavailable` (the request carried its
 * deadline, so nothing was done).
 */
@Injectable()
export class IntegrationsClient {
  private readonly client: ServiceClient<IntegrationsError>;

  constructor(@Inject(NATS) nc: NatsConnection, @Inject(BUS) bus: BusNames, @Inject(APP_CONFIG) config: AppConfig) {
    this.client = new ServiceClient(nc, {
      name: 'integrations',
      subject: (operation) => integrationsSubject(bus, operation),
      timeoutMs: config.INTEGRATIONS_REQUEST_TIMEOUT_MS,
      unavailable: integrationsUnavailable,
      problem: integrationsProblem,
    });
  }

  call<R>(
    operation: string,
    caller: IntegrationsCaller,
    payload: Record<string, unknown>,
    schema: z.ZodType<ServiceReply<R, IntegrationsError>>,
    options?: CallOptions<R>,
  ): Promise<R> {
    return this.client.call(operation, { ...payload, ...caller }, schema, options);
  }
}
