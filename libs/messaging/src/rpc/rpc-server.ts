import type { Msg, NatsConnection, Subscription } from '@nats-io/nats-core';
import type { z } from 'zod';
import { readRpcDeadline, RPC_DEADLINE_HEADER, type RpcCommonError } from '@meter/contracts';
import { Deadline } from './deadline';
import { RpcFailure } from './rpc-failure';

type Reply = { ok: true; result: unknown } | { ok: false; error: { code: string; detail: string } };

export interface RpcServerOptions {
  /** The queue group every replica joins, so each request is answered once. */
  queue: string;
  /** Names the service in `internal` details ("the vault could not complete the request"). */
  service: string;
  log: { error(message: string): void; warn(message: string): void };
  /** Called once per answered request, with the operation and `ok` or the error code (for metrics). */
  onAnswer?: (operation: string, outcome: string) => void;
}

/**
 * Answers one service's operations over NATS request/reply: each request is
 * checked against its schema, refused once its deadline has passed, and
 * answered with a result or a typed error (an `RpcFailure` the handler
 * throws). A reply its own schema would refuse is never sent. Requests and
 * replies are never logged: they may carry secrets.
 */
export class RpcServer {
  private readonly subscriptions: Subscription[] = [];
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly nc: NatsConnection,
    private readonly options: RpcServerOptions,
  ) {}

  serve<S extends z.ZodType>(
    operation: string,
    subject: string,
    schema: S,
    replySchema: z.ZodType<Reply>,
    handle: (request: z.infer<S>, deadline: Deadline) => Promise<unknown>,
  ): void {
    this.subscriptions.push(
      this.nc.subscribe(subject, {
        queue: this.options.queue,
        callback: (error, msg) => {
          if (error) {
            this.options.log.error(`subscription ${subject} failed: ${error.message}`);
            return;
          }
          const answering = this.answer(operation, msg, schema, replySchema, handle).finally(() => this.inFlight.delete(answering));
          this.inFlight.add(answering);
        },
      }),
    );
  }

  /** Stop taking requests and finish the ones under way (call while the database and NATS are still open). */
  async drain(): Promise<void> {
    await Promise.all(this.subscriptions.map((sub) => sub.drain().catch(() => undefined)));
    await Promise.all([...this.inFlight]);
  }

  private async answer<S extends z.ZodType>(
    operation: string,
    msg: Msg,
    schema: S,
    replySchema: z.ZodType<Reply>,
    handle: (request: z.infer<S>, deadline: Deadline) => Promise<unknown>,
  ) {
    let reply = await this.outcome(operation, msg, schema, handle);
    // The reply schema is the contract with the caller: never send what it would refuse.
    if (!replySchema.safeParse(reply).success) {
      this.options.log.error(`${operation} produced a reply outside its contract`);
      reply = this.internal();
    }
    this.options.onAnswer?.(operation, reply.ok ? 'ok' : reply.error.code);
    if (!msg.reply) return;
    try {
      msg.respond(JSON.stringify(reply));
    } catch (error) {
      this.options.log.warn(`could not answer ${operation}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async outcome<S extends z.ZodType>(
    operation: string,
    msg: Msg,
    schema: S,
    handle: (request: z.infer<S>, deadline: Deadline) => Promise<unknown>,
  ): Promise<Reply> {
    const deadlineAt = readRpcDeadline(msg.headers?.get(RPC_DEADLINE_HEADER));
    if (deadlineAt === null) return failed({ code: 'bad_request', detail: `${RPC_DEADLINE_HEADER} is not a time in milliseconds` });
    const deadline = new Deadline(deadlineAt);
    let body: unknown;
    try {
      body = JSON.parse(msg.string());
    } catch {
      return failed({ code: 'bad_request', detail: 'the request is not JSON' });
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      // Only paths, never values: the request may carry secrets.
      const fields = parsed.error.issues.map((issue) => issue.path.join('.') || '(request)');
      return failed({ code: 'bad_request', detail: `malformed ${operation} request: ${[...new Set(fields)].join(', ')}` });
    }
    try {
      // Work the sender has stopped waiting for is not started (it has answered 503 already).
      deadline.check();
      return { ok: true, result: await handle(parsed.data, deadline) };
    } catch (error) {
      if (error instanceof RpcFailure) return { ok: false, error: error.error };
      // Name and code only: an error message could quote data it choked on.
      const code = (error as { code?: unknown }).code;
      this.options.log.error(`${operation} failed: ${error instanceof Error ? error.name : 'error'}${typeof code === 'string' ? ` (${code})` : ''}`);
      return this.internal();
    }
  }

  private internal(): Reply {
    return failed({ code: 'internal', detail: `the ${this.options.service} could not complete the request` });
  }
}

function failed(error: RpcCommonError): Reply {
  return { ok: false, error };
}
