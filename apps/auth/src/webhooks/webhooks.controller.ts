import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, UseGuards } from '@nestjs/common';
import {
  createWebhookEndpointRequest,
  updateWebhookEndpointRequest,
  WEBHOOK_OPERATIONS,
  webhookReplies,
  type WebhookDeliveryView,
  type WebhookEndpointView,
} from '@meter/contracts';
import { parseBody } from '../common/parse-body';
import { IntegrationsClient } from '../integrations/integrations-client';
import { AdminSessionGuard, CurrentAdmin, type CurrentAdminInfo } from '../sessions';
import {
  ApiCreateWebhookEndpoint,
  ApiDeleteWebhookEndpoint,
  ApiListWebhookDeliveries,
  ApiListWebhookEndpoints,
  ApiRetryWebhookDelivery,
  ApiRotateWebhookSecret,
  ApiSendWebhookTest,
  ApiUpdateWebhookEndpoint,
} from './webhooks.openapi';

/**
 * `/webhook-endpoints` of the management API (docs/alerts-and-webhooks.md).
 * Bodies are validated here with the contract's schemas; the integrations
 * service, which owns endpoints, secrets and deliveries, does the rest.
 */
@Controller('webhook-endpoints')
@UseGuards(AdminSessionGuard)
export class WebhooksController {
  constructor(@Inject(IntegrationsClient) private readonly integrations: IntegrationsClient) {}

  private caller = (admin: CurrentAdminInfo) => ({ org_id: admin.orgId, actor: admin.adminId });

  @Post()
  @HttpCode(201)
  @ApiCreateWebhookEndpoint()
  create(@CurrentAdmin() admin: CurrentAdminInfo, @Body() body: unknown) {
    const endpoint = parseBody(createWebhookEndpointRequest, body);
    return this.integrations.call(WEBHOOK_OPERATIONS.create, this.caller(admin), { endpoint }, webhookReplies.create);
  }

  @Get()
  @ApiListWebhookEndpoints()
  list(@CurrentAdmin() admin: CurrentAdminInfo) {
    return this.integrations.call(WEBHOOK_OPERATIONS.list, this.caller(admin), {}, webhookReplies.list);
  }

  @Patch(':id')
  @ApiUpdateWebhookEndpoint()
  update(@CurrentAdmin() admin: CurrentAdminInfo, @Param('id') id: string, @Body() body: unknown): Promise<WebhookEndpointView> {
    const changes = parseBody(updateWebhookEndpointRequest, body);
    return this.integrations.call(WEBHOOK_OPERATIONS.update, this.caller(admin), { endpoint_id: id, changes }, webhookReplies.update);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiDeleteWebhookEndpoint()
  async remove(@CurrentAdmin() admin: CurrentAdminInfo, @Param('id') id: string) {
    await this.integrations.call(WEBHOOK_OPERATIONS.delete, this.caller(admin), { endpoint_id: id }, webhookReplies.delete);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @ApiRotateWebhookSecret()
  rotate(@CurrentAdmin() admin: CurrentAdminInfo, @Param('id') id: string) {
    return this.integrations.call(WEBHOOK_OPERATIONS.rotateSecret, this.caller(admin), { endpoint_id: id }, webhookReplies.rotateSecret);
  }

  @Post(':id/test')
  @HttpCode(202)
  @ApiSendWebhookTest()
  test(@CurrentAdmin() admin: CurrentAdminInfo, @Param('id') id: string): Promise<WebhookDeliveryView> {
    return this.integrations.call(WEBHOOK_OPERATIONS.test, this.caller(admin), { endpoint_id: id }, webhookReplies.test);
  }

  @Get(':id/deliveries')
  @ApiListWebhookDeliveries()
  deliveries(@CurrentAdmin() admin: CurrentAdminInfo, @Param('id') id: string) {
    return this.integrations.call(WEBHOOK_OPERATIONS.deliveries, this.caller(admin), { endpoint_id: id }, webhookReplies.deliveries);
  }

  @Post(':id/deliveries/:deliveryId/retry')
  @HttpCode(202)
  @ApiRetryWebhookDelivery()
  retry(@CurrentAdmin() admin: CurrentAdminInfo, @Param('id') id: string, @Param('deliveryId') deliveryId: string): Promise<WebhookDeliveryView> {
    return this.integrations.call(WEBHOOK_OPERATIONS.retry, this.caller(admin), { endpoint_id: id, delivery_id: deliveryId }, webhookReplies.retry);
  }
}
