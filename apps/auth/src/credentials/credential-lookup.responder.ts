import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { NatsConnection, Subscription } from '@nats-io/nats-core';
import { DataSource } from 'typeorm';
import {
  CREDENTIAL_LOOKUP_QUEUE_GROUP,
  credentialLookupReply,
  credentialLookupRequest,
  credentialLookupSubject,
  type BusNames,
  type CredentialLookupReply,
} from '@meter/contracts';
import { BUS, NATS } from '@meter/messaging';
import { DatabaseOutage } from '@meter/persistence';
import { serveLookups } from '../common/serve-lookups';
import { envelopeOf, latestCredentialEvents } from '../events/event-store';

/**
 * Answers the gateways' `auth.credentials.lookup` requests with the
 * credential's events (docs/gateway-security.md, "A credential the gateway
 * has not seen yet"). Auth commits a credential before it answers 201, so a
 * gateway that asks after the 201 always finds it.
 */
@Injectable()
export class CredentialLookupResponder implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('credential-lookup');
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
      subject: credentialLookupSubject(this.bus),
      queue: CREDENTIAL_LOOKUP_QUEUE_GROUP,
      lookup: (data) => this.lookup(data),
      unavailable: { status: 'unavailable' } as CredentialLookupReply,
      outage: this.outage,
      logger: this.logger,
    });
  }

  async onApplicationShutdown() {
    await this.subscription?.drain().catch(() => undefined);
  }

  /** The reply to one request; a request that is not a lookup is answered `unknown`. */
  async lookup(data: Uint8Array): Promise<CredentialLookupReply> {
    let request;
    try {
      request = credentialLookupRequest.safeParse(JSON.parse(new TextDecoder().decode(data)));
    } catch {
      return { status: 'unknown' };
    }
    if (!request.success) return { status: 'unknown' };
    const rows = await latestCredentialEvents(this.dataSource.manager, request.data.access_key);
    if (rows.length === 0) return { status: 'unknown' };
    // Validated as the gateway will: what auth appended passed the same schemas.
    return credentialLookupReply.parse({ status: 'found', events: rows.map(envelopeOf) });
  }
}
