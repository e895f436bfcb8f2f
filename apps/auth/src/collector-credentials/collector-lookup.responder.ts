import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Msg, NatsConnection, Subscription } from '@nats-io/nats-core';
import { DataSource } from 'typeorm';
import {
  collectorLookupReply,
  collectorLookupRequest,
  collectorLookupSubject,
  CREDENTIAL_LOOKUP_QUEUE_GROUP,
  type BusNames,
  type CollectorLookupReply,
} from '@meter/contracts';
import { BUS, NATS } from '@meter/messaging';
import { DatabaseOutage } from '@meter/persistence';
import type { CollectorCredentialRow } from './collector-credential-row';

const encoder = new TextEncoder();

/**
 * Answers collectors' `auth.collectors.lookup` with an active credential's
 * organization, format, mapping and password hash (docs/collectors.md, "How
 * collectors are authenticated"); collectors verify the password themselves.
 */
@Injectable()
export class CollectorLookupResponder implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('collector-lookup');
  private subscription?: Subscription;

  constructor(
    @Inject(NATS) private readonly nc: NatsConnection,
    @Inject(BUS) private readonly bus: BusNames,
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(DatabaseOutage) private readonly outage: DatabaseOutage,
  ) {}

  onModuleInit() {
    this.subscription = this.nc.subscribe(collectorLookupSubject(this.bus), {
      queue: CREDENTIAL_LOOKUP_QUEUE_GROUP,
      callback: (error, message) => {
        if (error) return this.logger.warn(`lookup subscription: ${error.message}`);
        void this.answer(message);
      },
    });
  }

  async onApplicationShutdown() {
    await this.subscription?.drain().catch(() => undefined);
  }

  private async answer(message: Msg) {
    let reply: CollectorLookupReply;
    try {
      reply = await this.lookup(message.data);
    } catch (error) {
      if (!this.outage.report(error)) this.logger.warn(`collector lookup failed: ${error instanceof Error ? error.message : String(error)}`);
      reply = { status: 'unavailable' };
    }
    message.respond(encoder.encode(JSON.stringify(reply)));
  }

  async lookup(data: Uint8Array): Promise<CollectorLookupReply> {
    let request;
    try {
      request = collectorLookupRequest.safeParse(JSON.parse(new TextDecoder().decode(data)));
    } catch {
      return { status: 'unknown' };
    }
    if (!request.success) return { status: 'unknown' };
    const [row] = (await this.dataSource.query(
      `SELECT id, org_id, username, format, mapping, password_hash FROM auth.collector_credentials WHERE username = $1 AND status = 'active'`,
      [request.data.username],
    )) as CollectorCredentialRow[];
    if (!row) return { status: 'unknown' };
    return collectorLookupReply.parse({
      status: 'found',
      credential: { id: row.id, org_id: row.org_id, username: row.username, format: row.format, mapping: row.mapping, password_hash: row.password_hash },
    });
  }
}
