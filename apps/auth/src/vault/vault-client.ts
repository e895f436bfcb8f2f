import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/nats-core';
import type { z } from 'zod';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { vaultSubject, type BusNames, type VaultError, type VaultOperation } from '@meter/contracts';
import { BUS, NATS } from '@meter/messaging';
import { ServiceClient, type ServiceReply } from '../forwarding/service-client';
import { vaultProblem, vaultUnavailable } from './vault-problem';

/**
 * The vault service, asked within VAULT_REQUEST_TIMEOUT_MS: the result, its
 * typed error as problem+json, or 503 `vault_unavailable`. The request
 * carries its deadline (docs/vault.md), which the vault will not work past,
 * so a 503 means the change was not made.
 */
@Injectable()
export class VaultClient {
  private readonly client: ServiceClient<VaultError>;

  constructor(@Inject(NATS) nc: NatsConnection, @Inject(BUS) bus: BusNames, @Inject(APP_CONFIG) config: AppConfig) {
    this.client = new ServiceClient(nc, {
      name: 'vault',
      subject: (operation) => vaultSubject(bus, operation as VaultOperation),
      timeoutMs: config.VAULT_REQUEST_TIMEOUT_MS,
      unavailable: vaultUnavailable,
      problem: vaultProblem,
    });
  }

  call<R>(operation: VaultOperation, payload: unknown, schema: z.ZodType<ServiceReply<R, VaultError>>): Promise<R> {
    return this.client.call(operation, payload, schema);
  }
}
