import { Module } from '@nestjs/common';
import { WebhooksController } from './webhooks.controller';

/** `/webhook-endpoints`: admin routes forwarded to the integrations service over NATS (IntegrationsClient). */
@Module({ controllers: [WebhooksController] })
export class WebhooksModule {}
