import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { Msg, NatsConnection, Subscription } from '@nats-io/nats-core';
import type { z } from 'zod';
import {
  VAULT_QUEUE_GROUP,
  vaultDeleteRequest,
  vaultListRequest,
  vaultOpenRequest,
  vaultSubject,
  vaultUpsertRequest,
  type BusNames,
  type VaultError,
  type VaultOperation,
} from '@meter/contracts';
import { BUS, NATS } from '@meter/messaging';
import { VaultEntriesService } from './vault-entries.service';
import { VaultFailure } from './vault-failure';

type Reply = { ok: true; result: unknown } | { ok: false; error: VaultError };

/**
 * The vault's only interface: NATS request/reply in the `vault` queue
 * group. Each request is checked against its contract schema; each reply
 * is a result or a typed error. Requests and replies are never logged,
 * since they carry secrets.
 */
@Injectable()
export class EntriesHandler implements OnApplicationBootstrap {
  private readonly logger = new Logger('vault-rpc');
  private readonly subscriptions: Subscription[] = [];

  constructor(
    @Inject(NATS) private readonly nc: NatsConnection,
    @Inject(BUS) private readonly bus: BusNames,
    @Inject(VaultEntriesService) private readonly entries: VaultEntriesService,
  ) {}

  onApplicationBootstrap() {
    this.serve('upsert', vaultUpsertRequest, (request) => this.entries.upsert(request));
    this.serve('list', vaultListRequest, async (request) => ({ entries: await this.entries.list(request) }));
    this.serve('delete', vaultDeleteRequest, (request) => this.entries.delete(request));
    this.serve('open', vaultOpenRequest, (request) => this.entries.open(request));
  }

  private serve<S extends z.ZodType>(operation: VaultOperation, schema: S, handle: (request: z.infer<S>) => Promise<unknown>) {
    const subject = vaultSubject(this.bus, operation);
    this.subscriptions.push(
      this.nc.subscribe(subject, {
        queue: VAULT_QUEUE_GROUP,
        callback: (error, msg) => {
          if (error) {
            this.logger.error(`subscription ${subject} failed: ${error.message}`);
            return;
          }
          void this.answer(operation, msg, schema, handle);
        },
      }),
    );
  }

  private async answer<S extends z.ZodType>(operation: VaultOperation, msg: Msg, schema: S, handle: (request: z.infer<S>) => Promise<unknown>) {
    const reply = await this.outcome(operation, msg, schema, handle);
    if (!msg.reply) return;
    try {
      msg.respond(JSON.stringify(reply));
    } catch (error) {
      this.logger.warn(`could not answer ${operation}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async outcome<S extends z.ZodType>(operation: VaultOperation, msg: Msg, schema: S, handle: (request: z.infer<S>) => Promise<unknown>): Promise<Reply> {
    let body: unknown;
    try {
      body = JSON.parse(msg.string());
    } catch {
      return { ok: false, error: { code: 'bad_request', detail: 'the request is not JSON' } };
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      // Only paths, never values: the request may carry secrets.
      const fields = parsed.error.issues.map((issue) => issue.path.join('.') || '(request)');
      return { ok: false, error: { code: 'bad_request', detail: `malformed ${operation} request: ${[...new Set(fields)].join(', ')}` } };
    }
    try {
      return { ok: true, result: await handle(parsed.data) };
    } catch (error) {
      if (error instanceof VaultFailure) return { ok: false, error: error.error };
      this.logger.error(`${operation} failed: ${error instanceof Error ? error.name : 'error'}`);
      return { ok: false, error: { code: 'internal', detail: 'the vault could not complete the request' } };
    }
  }
}
