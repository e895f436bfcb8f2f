import { Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { NatsConnection, Subscription } from '@nats-io/nats-core';
import type { z } from 'zod';
import type { DatabaseOutage } from '@meter/persistence';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** What a lookup subject answers besides its finds. */
type LookupStatus = { status: 'unknown' } | { status: 'unavailable' };

/**
 * Answers lookups on a core NATS subject, one auth replica per request
 * (queue group): a request its schema refuses is `unknown`; a lookup that
 * fails (Postgres away) is `unavailable`, logged once per outage. A
 * responder says what it serves and how it finds one.
 */
export abstract class LookupResponder<Q, R extends { status: string }> implements OnModuleInit, OnApplicationShutdown {
  private readonly logger: Logger;
  private subscription?: Subscription;

  protected constructor(
    private readonly nc: NatsConnection,
    private readonly outage: DatabaseOutage,
    private readonly endpoint: { name: string; subject: string; queue: string; request: z.ZodType<Q> },
  ) {
    this.logger = new Logger(endpoint.name);
  }

  /** The answer to one request that its schema accepted. */
  protected abstract find(request: Q): Promise<R>;

  onModuleInit() {
    const { subject, queue } = this.endpoint;
    this.subscription = this.nc.subscribe(subject, {
      queue,
      callback: (error, message) => {
        if (error) return this.logger.warn(`${subject} subscription: ${error.message}`);
        void this.lookup(message.data)
          .catch((failure: unknown): R | LookupStatus => {
            if (!this.outage.report(failure)) this.logger.warn(`${subject} failed: ${failure instanceof Error ? failure.message : String(failure)}`);
            return { status: 'unavailable' };
          })
          .then((reply) => message.respond(encoder.encode(JSON.stringify(reply))));
      },
    });
  }

  async onApplicationShutdown() {
    await this.subscription?.drain().catch(() => undefined);
  }

  /** The reply to one request; a request that is not a lookup is answered `unknown`. */
  async lookup(data: Uint8Array): Promise<R | LookupStatus> {
    let request;
    try {
      request = this.endpoint.request.safeParse(JSON.parse(decoder.decode(data)));
    } catch {
      return { status: 'unknown' };
    }
    return request.success ? this.find(request.data) : { status: 'unknown' };
  }
}
