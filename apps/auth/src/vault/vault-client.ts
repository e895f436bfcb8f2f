import { Inject, Injectable, Logger } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/nats-core';
import type { z } from 'zod';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { vaultSubject, type BusNames, type VaultError, type VaultOperation } from '@meter/contracts';
import { ProblemException } from '@meter/http';
import { BUS, NATS } from '@meter/messaging';

type ReplySchema = z.ZodType<{ ok: true; result: unknown } | { ok: false; error: VaultError }>;

/**
 * Sends one request to the vault service and waits at most
 * VAULT_REQUEST_TIMEOUT_MS: no responder, a timeout or a lost connection
 * is 503 `vault_unavailable`, never a hanging request.
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
    let text: string;
    try {
      const reply = await this.nc.request(vaultSubject(this.bus, operation), JSON.stringify(payload), {
        timeout: this.config.VAULT_REQUEST_TIMEOUT_MS,
      });
      text = reply.string();
    } catch (error) {
      this.logger.warn(`vault ${operation} unanswered: ${error instanceof Error ? error.message : String(error)}`);
      throw new ProblemException(503, 'vault_unavailable', 'the vault service is not reachable right now; try again shortly', {}, { 'Retry-After': '5' });
    }
    let parsed: ReturnType<S['safeParse']>;
    try {
      parsed = schema.safeParse(JSON.parse(text)) as ReturnType<S['safeParse']>;
    } catch {
      parsed = { success: false } as ReturnType<S['safeParse']>;
    }
    if (!parsed.success) {
      this.logger.error(`vault ${operation} answered outside its contract`);
      throw new ProblemException(502, 'vault_bad_reply', 'the vault service gave an unexpected answer');
    }
    return parsed.data as z.infer<S>;
  }
}
