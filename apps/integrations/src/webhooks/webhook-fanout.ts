import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { ConsumerMessages, JetStreamClient, JetStreamManager, JsMsg } from '@nats-io/jetstream';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { outboundEvent, platformStreams, type BusNames, type ConsumerSpec, type OutboundEvent } from '@meter/contracts';
import { BUS, ensureConsumer, JETSTREAM, JETSTREAM_MANAGER } from '@meter/messaging';
import { DatabaseOutage, isDatabaseUnavailable } from '@meter/persistence';
import { addDeliveries, recordEvent } from './delivery-store';
import { DeliveryWorker } from './delivery-worker';
import { scheduledAttempts } from './retry-schedule';

/** The durable consumer of OUTBOUND_EVENTS that fans events out to webhook endpoints, shared by every integrations replica. */
export function webhookEventsConsumer(bus: BusNames): ConsumerSpec {
  return {
    stream: platformStreams(bus).outboundEvents.name,
    durable: bus.consumer('INTEGRATIONS_WEBHOOKS'),
    ackWaitSeconds: 30,
    maxDeliver: -1,
    maxAckPending: 1000,
  };
}

/** The body every delivery of an event sends, byte for byte (Standard Webhooks): `{type, timestamp, data}`. */
export const webhookBody = (event: OutboundEvent) => JSON.stringify({ type: event.type, timestamp: event.occurred_at, data: event.data });

/**
 * Turns each outbound event into one pending delivery per enabled endpoint of
 * its organization subscribed to its type, in one transaction, and acks the
 * event only after that commit (a redelivered event adds nothing: one
 * delivery per endpoint and event). A message that is not an outbound event
 * is logged and terminated: no endpoint could be told of it.
 */
@Injectable()
export class WebhookFanout implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('webhooks');
  private readonly maxAttempts: number;
  private messages?: ConsumerMessages;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    @Inject(DataSource) private readonly db: DataSource,
    @Inject(JETSTREAM) private readonly js: JetStreamClient,
    @Inject(JETSTREAM_MANAGER) private readonly jsm: JetStreamManager,
    @Inject(BUS) private readonly bus: BusNames,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(DeliveryWorker) private readonly worker: DeliveryWorker,
    @Inject(DatabaseOutage) private readonly outage: DatabaseOutage,
  ) {
    this.maxAttempts = scheduledAttempts(config.WEBHOOK_RETRY_SCHEDULE_SECONDS);
  }

  async onApplicationBootstrap() {
    const spec = webhookEventsConsumer(this.bus);
    await ensureConsumer(this.jsm, spec);
    const consumer = await this.js.consumers.get(spec.stream, spec.durable);
    // One event at a time, in stream order: webhook traffic is light, and order costs nothing here.
    this.messages = await consumer.consume({
      max_messages: 100,
      callback: (msg) => {
        this.chain = this.chain.then(() => this.handle(msg));
      },
    });
  }

  async beforeApplicationShutdown() {
    await this.messages?.close().catch(() => undefined);
    await this.chain;
  }

  private async handle(msg: JsMsg) {
    let event: OutboundEvent;
    try {
      event = outboundEvent.parse(JSON.parse(new TextDecoder().decode(msg.data)));
    } catch (error) {
      this.logger.warn(`outbound event ${msg.seq} on ${msg.subject} is not valid, dropped: ${(error as Error).message.slice(0, 300)}`);
      msg.term();
      return;
    }
    try {
      const added = await this.fanOut(event);
      msg.ack();
      if (added > 0) this.worker.wake();
    } catch (error) {
      if (!this.outage.report(error) && !isDatabaseUnavailable(error))
        this.logger.warn(`event ${event.event_id} not fanned out, will retry: ${(error as Error).message}`);
      msg.nak(Math.min(30_000, 500 * 2 ** Math.min(6, msg.info.deliveryCount)));
    }
  }

  private fanOut(event: OutboundEvent): Promise<number> {
    return this.db.transaction(async (m) => {
      await recordEvent(m, { eventId: event.event_id, orgId: event.org_id, type: event.type, body: webhookBody(event) });
      return addDeliveries(m, event.org_id, event.event_id, event.type, this.maxAttempts);
    });
  }
}
