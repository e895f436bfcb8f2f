import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/nats-core';
import { DataSource } from 'typeorm';
import {
  CREDENTIAL_LOOKUP_QUEUE_GROUP,
  credentialLookupReply,
  credentialLookupRequest,
  credentialLookupSubject,
  type BusNames,
  type CredentialLookupReply,
  type CredentialLookupRequest,
} from '@meter/contracts';
import { BUS, NATS } from '@meter/messaging';
import { DatabaseOutage } from '@meter/persistence';
import { LookupResponder } from '../common/lookup-responder';
import { envelopeOf, latestCredentialEvents } from '../events/event-store';

/**
 * Answers the gateways' `auth.credentials.lookup` requests with the
 * credential's events (docs/gateway-security.md, "A credential the gateway
 * has not seen yet"). Auth commits a credential before it answers 201, so a
 * gateway that asks after the 201 always finds it.
 */
@Injectable()
export class CredentialLookupResponder extends LookupResponder<CredentialLookupRequest, CredentialLookupReply> {
  constructor(
    @Inject(NATS) nc: NatsConnection,
    @Inject(BUS) bus: BusNames,
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(DatabaseOutage) outage: DatabaseOutage,
  ) {
    super(nc, outage, {
      name: 'credential-lookup',
      subject: credentialLookupSubject(bus),
      queue: CREDENTIAL_LOOKUP_QUEUE_GROUP,
      request: credentialLookupRequest,
    });
  }

  protected async find(request: CredentialLookupRequest): Promise<CredentialLookupReply> {
    const rows = await latestCredentialEvents(this.dataSource.manager, request.access_key);
    if (rows.length === 0) return { status: 'unknown' };
    // Validated as the gateway will: what auth appended passed the same schemas.
    return credentialLookupReply.parse({ status: 'found', events: rows.map(envelopeOf) });
  }
}
