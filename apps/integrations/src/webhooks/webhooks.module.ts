import { Module } from '@nestjs/common';
import { DeliveryWorker } from './delivery-worker';
import { WebhookEndpoints } from './webhook-endpoints';
import { WebhookFanout } from './webhook-fanout';
import { webhookRingProvider } from './webhook-secrets';

/** Webhook endpoints (management operations over NATS), the fan-out of outbound events and the delivery worker. */
@Module({ providers: [webhookRingProvider, DeliveryWorker, WebhookFanout, WebhookEndpoints] })
export class WebhooksModule {}
