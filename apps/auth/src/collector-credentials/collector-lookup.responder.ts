import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { NatsConnection, Subscription } from '@nats-io/nats-core';
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
import { serveLookups } from '../common/serve-lookups';
import { activeCollectorCredential } from './collector-credential-store';

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
    this.subscription = serveLookups({
      nc: this.nc,
      subject: collectorLookupSubject(this.bus),
      queue: CREDENTIAL_LOOKUP_QUEUE_GROUP,
      lookup: (data) => this.lookup(data),
      unavailable: { status: 'unavailable' } as CollectorLookupReply,
      outage: this.outage,
      logger: this.logger,
    });
  }

  async onApplicationShutdown() {
    await this.subscription?.drain().catch(() => undefined);
  }

  async lookup(data: Uint8Array): Promise<CollectorLookupReply> {
    let request;
    try {
      request = collectorLookupRequest.safeParse(JSON.parse(new TextDecoder().decode(data)));
    } catch {
      return { status: 'unknown' };
    }
    if (!request.success) return { status: 'unknown' };
    const row = await activeCollectorCredential(this.dataSource.manager, request.data.username);
    if (!row) return { status: 'unknown' };
    return collectorLookupReply.parse({
      status: 'found',
      credential: { id: row.id, org_id: row.org_id, username: row.username, format: row.format, mapping: row.mapping, password_hash: row.password_hash },
    });
  }
}
