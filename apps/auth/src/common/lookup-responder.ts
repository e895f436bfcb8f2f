import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { NatsConnection, Subscription } from '@nats-io/nats-core';
import { DataSource, type EntityManager } from 'typeorm';
import type { z } from 'zod';
import { CREDENTIAL_LOOKUP_QUEUE_GROUP, type BusNames } from '@meter/contracts';
import { BUS, NATS } from '@meter/messaging';
import { DatabaseOutage } from '@meter/persistence';
import { subscribeQueue } from './queue-subscription';

const decoder = new TextDecoder();

/** What a lookup subject answers besides its finds. */
type LookupStatus = { status: 'unknown' } | { status: 'unavailable' };

/**
 * A lookup on a core NATS subject as a provider, answered by one auth
 * replica per request (queue group): a request its schema refuses is
 * `unknown`; a lookup that fails (Postgres away) is `unavailable`, logged
 * once per outage. A responder says what it serves and how it finds one:
 * `class CredentialLookupResponder extends LookupResponder({...}) {}`.
 */
export function LookupResponder<Q, R>(spec: {
  name: string;
  subject: (bus: BusNames) => string;
  request: z.ZodType<Q>;
  find: (db: EntityManager, request: Q) => Promise<R | LookupStatus>;
}) {
  @Injectable()
  class Responder implements OnModuleInit, OnApplicationShutdown {
    private readonly logger = new Logger(spec.name);
    private subscription?: Subscription;

    constructor(
      @Inject(NATS) private readonly nc: NatsConnection,
      @Inject(BUS) private readonly bus: BusNames,
      @Inject(DataSource) private readonly dataSource: DataSource,
      @Inject(DatabaseOutage) private readonly outage: DatabaseOutage,
    ) {}

    onModuleInit() {
      this.subscription = subscribeQueue<R | LookupStatus>({
        nc: this.nc,
        subject: spec.subject(this.bus),
        queue: CREDENTIAL_LOOKUP_QUEUE_GROUP,
        logger: this.logger,
        outage: this.outage,
        handle: (data) => this.lookup(data),
        reply: { failed: { status: 'unavailable' } },
      });
    }

    async onApplicationShutdown() {
      await this.subscription?.drain().catch(() => undefined);
    }

    /** The reply to one request; a request that is not a lookup is answered `unknown`. */
    async lookup(data: Uint8Array): Promise<R | LookupStatus> {
      let request;
      try {
        request = spec.request.safeParse(JSON.parse(decoder.decode(data)));
      } catch {
        return { status: 'unknown' };
      }
      return request.success ? spec.find(this.dataSource.manager, request.data) : { status: 'unknown' };
    }
  }
  return Responder;
}
