import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/nats-core';
import { DataSource } from 'typeorm';
import {
  collectorLookupReply,
  collectorLookupRequest,
  collectorLookupSubject,
  CREDENTIAL_LOOKUP_QUEUE_GROUP,
  type BusNames,
  type CollectorLookupReply,
  type CollectorLookupRequest,
} from '@meter/contracts';
import { BUS, NATS } from '@meter/messaging';
import { DatabaseOutage } from '@meter/persistence';
import { LookupResponder } from '../common/lookup-responder';
import { activeCollectorCredential } from './collector-credential-store';

/**
 * Answers collectors' `auth.collectors.lookup` with an active credential's
 * organization, format, mapping and password hash (docs/collectors.md, "How
 * collectors are authenticated"); collectors verify the password themselves.
 */
@Injectable()
export class CollectorLookupResponder extends LookupResponder<CollectorLookupRequest, CollectorLookupReply> {
  constructor(
    @Inject(NATS) nc: NatsConnection,
    @Inject(BUS) bus: BusNames,
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(DatabaseOutage) outage: DatabaseOutage,
  ) {
    super(nc, outage, {
      name: 'collector-lookup',
      subject: collectorLookupSubject(bus),
      queue: CREDENTIAL_LOOKUP_QUEUE_GROUP,
      request: collectorLookupRequest,
    });
  }

  protected async find(request: CollectorLookupRequest): Promise<CollectorLookupReply> {
    const row = await activeCollectorCredential(this.dataSource.manager, request.username);
    if (!row) return { status: 'unknown' };
    return collectorLookupReply.parse({
      status: 'found',
      credential: { id: row.id, org_id: row.org_id, username: row.username, format: row.format, mapping: row.mapping, password_hash: row.password_hash },
    });
  }
}
