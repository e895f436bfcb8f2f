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
import { AuditTrail } from '../audit/audit-trail';
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
  constructor(
    @Inject(IntegrationsClient) private readonly integrations: IntegrationsClient,
    @Inject(AuditTrail) private readonly audit: AuditTrail,
  ) {}

  private caller = (admin: CurrentAdminInfo) => ({ org_id: admin.orgId, actor: admin.adminId });

  @Post()
  @HttpCode(201)
  @ApiCreateWebhookEndpoint()
  async create(@CurrentAdmin() admin: CurrentAdminInfo, @Body() body: unknown) {
    const endpoint = parseBody(createWebhookEndpointRequest, body);
    const created = await this.integrations.call(WEBHOOK_OPERATIONS.create, this.caller(admin), { endpoint }, webhookReplies.create);
    // Not the URL: a receiver's URL may carry a token of its own.
    await this.audit.record(admin, 'webhook_endpoint.created', created.id, endpoint.events.join(', '));
    return created;
  }

  @Get()
  @ApiListWebhookEndpoints()
  list(@CurrentAdmin() admin: CurrentAdminInfo) {
    return this.integrations.call(WEBHOOK_OPERATIONS.list, this.caller(admin), {}, webhookReplies.list);
  }

  @Patch(':id')
  @ApiUpdateWebhookEndpoint()
  async update(@CurrentAdmin() admin: CurrentAdminInfo, @Param('id') id: string, @Body() body: unknown): Promise<WebhookEndpointView> {
    const changes = parseBody(updateWebhookEndpointRequest, body);
    const updated = await this.integrations.call(WEBHOOK_OPERATIONS.update, this.caller(admin), { endpoint_id: id, changes }, webhookReplies.update);
    await this.audit.record(admin, 'webhook_endpoint.changed', updated.id, Object.keys(changes).join(', ') + (changes.status ? `: ${changes.status}` : ''));
    return updated;
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiDeleteWebhookEndpoint()
  async remove(@CurrentAdmin() admin: CurrentAdminInfo, @Param('id') id: string) {
    await this.integrations.call(WEBHOOK_OPERATIONS.delete, this.caller(admin), { endpoint_id: id }, webhookReplies.delete);
    await this.audit.record(admin, 'webhook_endpoint.deleted', id);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @ApiRotateWebhookSecret()
  async rotate(@CurrentAdmin() admin: CurrentAdminInfo, @Param('id') id: string) {
    const rotated = await this.integrations.call(WEBHOOK_OPERATIONS.rotateSecret, this.caller(admin), { endpoint_id: id }, webhookReplies.rotateSecret);
    await this.audit.record(admin, 'webhook_endpoint.secret_rotated', id);
    return rotated;
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
