import { Module } from '@nestjs/common';
import { DeliveryRetention } from './delivery-retention';
import { DeliveryWorker } from './delivery-worker';
import { WebhookEndpoints } from './webhook-endpoints';
import { WebhookFanout } from './webhook-fanout';
import { webhookRingProvider } from './webhook-secrets';

/** Webhook endpoints (management operations over NATS), the fan-out of outbound events, the delivery worker and the delivery log's retention. */
@Module({ providers: [webhookRingProvider, DeliveryWorker, WebhookFanout, WebhookEndpoints, DeliveryRetention] })
export class WebhooksModule {}
