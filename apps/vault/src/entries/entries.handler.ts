import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { Msg, NatsConnection, Subscription } from '@nats-io/nats-core';
import type { z } from 'zod';
import {
  VAULT_QUEUE_GROUP,
  vaultDeleteReply,
  vaultDeleteRequest,
  vaultListReply,
  vaultListRequest,
  vaultOpenReply,
  vaultOpenRequest,
  vaultSubject,
  vaultUpsertReply,
  vaultUpsertRequest,
  type BusNames,
  type VaultError,
  type VaultOperation,
} from '@meter/contracts';
import { Metrics } from '@meter/http';
import { BUS, NATS } from '@meter/messaging';
import { Counter } from 'prom-client';
import { VaultEntriesService } from './vault-entries.service';
import { VaultFailure } from './vault-failure';

type Reply = { ok: true; result: unknown } | { ok: false; error: VaultError };
type ReplySchema = z.ZodType<Reply>;

/**
 * The vault's only interface: NATS request/reply in the `vault` queue
 * group. Each request is checked against its contract schema; each reply
 * is a result or a typed error. Requests and replies are never logged,
 * since they carry secrets.
 */
@Injectable()
export class EntriesHandler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('vault-rpc');
  private readonly subscriptions: Subscription[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private readonly requests: Counter<'operation' | 'outcome'>;

  constructor(
    @Inject(NATS) private readonly nc: NatsConnection,
    @Inject(BUS) private readonly bus: BusNames,
    @Inject(VaultEntriesService) private readonly entries: VaultEntriesService,
    @Inject(Metrics) metrics: Metrics,
  ) {
    this.requests = new Counter({
      name: 'vault_requests_total',
      help: 'Vault requests over NATS by operation and outcome (ok or the error code)',
      labelNames: ['operation', 'outcome'] as const,
      registers: [metrics.registry],
    });
  }

  onApplicationBootstrap() {
    this.serve('upsert', vaultUpsertRequest, vaultUpsertReply, (request) => this.entries.upsert(request));
    this.serve('list', vaultListRequest, vaultListReply, async (request) => ({ entries: await this.entries.list(request) }));
    this.serve('delete', vaultDeleteRequest, vaultDeleteReply, (request) => this.entries.delete(request));
    this.serve('open', vaultOpenRequest, vaultOpenReply, (request) => this.entries.open(request));
  }

  /** Stop taking requests and finish the ones under way while Postgres and NATS are still open. */
  async beforeApplicationShutdown() {
    await Promise.all(this.subscriptions.map((sub) => sub.drain().catch(() => undefined)));
    await Promise.all([...this.inFlight]);
  }

  private serve<S extends z.ZodType>(operation: VaultOperation, schema: S, replySchema: ReplySchema, handle: (request: z.infer<S>) => Promise<unknown>) {
    const subject = vaultSubject(this.bus, operation);
    this.subscriptions.push(
      this.nc.subscribe(subject, {
        queue: VAULT_QUEUE_GROUP,
        callback: (error, msg) => {
          if (error) {
            this.logger.error(`subscription ${subject} failed: ${error.message}`);
            return;
          }
          const answering = this.answer(operation, msg, schema, replySchema, handle).finally(() => this.inFlight.delete(answering));
          this.inFlight.add(answering);
        },
      }),
    );
  }

  private async answer<S extends z.ZodType>(
    operation: VaultOperation,
    msg: Msg,
    schema: S,
    replySchema: ReplySchema,
    handle: (request: z.infer<S>) => Promise<unknown>,
  ) {
    let reply = await this.outcome(operation, msg, schema, handle);
    // The reply schema is the contract with auth and the workers: never send what it would refuse.
    if (!replySchema.safeParse(reply).success) {
      this.logger.error(`${operation} produced a reply outside its contract`);
      reply = { ok: false, error: { code: 'internal', detail: 'the vault could not complete the request' } };
    }
    this.requests.inc({ operation, outcome: reply.ok ? 'ok' : reply.error.code });
    if (!msg.reply) return;
    try {
      msg.respond(JSON.stringify(reply));
    } catch (error) {
      this.logger.warn(`could not answer ${operation}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async outcome<S extends z.ZodType>(
    operation: VaultOperation,
    msg: Msg,
    schema: S,
    handle: (request: z.infer<S>) => Promise<unknown>,
  ): Promise<Reply> {
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
      // Name and code only: an error message could quote data it choked on.
      const code = (error as { code?: unknown }).code;
      this.logger.error(`${operation} failed: ${error instanceof Error ? error.name : 'error'}${typeof code === 'string' ? ` (${code})` : ''}`);
      return { ok: false, error: { code: 'internal', detail: 'the vault could not complete the request' } };
    }
  }
}
