import { Inject, Injectable, Logger } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/nats-core';
import type { z } from 'zod';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { vaultSubject, type BusNames, type VaultError, type VaultOperation } from '@meter/contracts';
import { ProblemException } from '@meter/http';
import { BUS, NATS, requestRpc, RpcUnavailable } from '@meter/messaging';
import { vaultUnavailable } from './vault-problem';

type ReplySchema = z.ZodType<{ ok: true; result: unknown } | { ok: false; error: VaultError }>;

/**
 * Sends one request to the vault service and waits at most
 * VAULT_REQUEST_TIMEOUT_MS: no responder, a timeout or a lost connection
 * is 503 `vault_unavailable`, never a hanging request. The request carries
 * its deadline (docs/vault.md), which the vault will not work past, so a
 * 503 means the change was not made.
 */
@Injectable()
export class VaultClient {
  private readonly logger = new Logger('vault-client');

  constructor(
    @Inject(NATS) private readonly nc: NatsConnection,
    @Inject(BUS) private readonly bus: BusNames,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async request<S extends ReplySchema>(operation: VaultOperation, payload: unknown, schema: S): Promise<z.infer<S>> {
    try {
      return await requestRpc(this.nc, vaultSubject(this.bus, operation), payload, schema, this.config.VAULT_REQUEST_TIMEOUT_MS);
    } catch (error) {
      this.logger.warn(`vault ${operation}: ${error instanceof Error ? error.message : String(error)}`);
      if (error instanceof RpcUnavailable) throw vaultUnavailable();
      throw new ProblemException(502, 'vault_bad_reply', 'the vault service gave an unexpected answer');
    }
  }
}
