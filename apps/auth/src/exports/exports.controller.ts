import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, UseGuards } from '@nestjs/common';
import {
  EXPORT_OPERATIONS,
  exportDeleteReply,
  exportIntegrationListReply,
  exportIntegrationReply,
  exportRunListReply,
  exportRunQueuedReply,
  exportRunReply,
} from '@meter/contracts';
import { validationFailed } from '@meter/http';
import { AuditTrail } from '../audit/audit-trail';
import { IntegrationsClient } from '../integrations/integrations-client';
import { AdminSessionGuard, CurrentAdmin, type CurrentAdminInfo } from '../sessions';
import {
  ApiCreateIntegration,
  ApiDeleteIntegration,
  ApiGetIntegration,
  ApiGetRun,
  ApiListIntegrations,
  ApiListRuns,
  ApiQueueRun,
  ApiUpdateIntegration,
} from './exports.openapi';

const caller = (admin: CurrentAdminInfo) => ({ org_id: admin.orgId, actor: admin.adminId });

function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw validationFailed([{ field: 'body', message: 'must be a JSON object' }]);
  return body as Record<string, unknown>;
}

/** An integration in the audit log: where it exports to (names only; its credentials stay in the vault). */
const describe = (integration: { namespace: string; storage_type: string; destination: { bucket: string; prefix: string } }) =>
  `${integration.namespace} → ${integration.storage_type} ${integration.destination.bucket}/${integration.destination.prefix}`;

/**
 * Batch exports of the management API (docs/exports.md). Forwarded to the
 * integrations service with the caller's organization, which validates and
 * keeps the state: this process keeps nothing of them.
 */
@Controller('integrations')
@UseGuards(AdminSessionGuard)
export class ExportsController {
  constructor(
    @Inject(IntegrationsClient) private readonly integrations: IntegrationsClient,
    @Inject(AuditTrail) private readonly audit: AuditTrail,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiCreateIntegration()
  async create(@CurrentAdmin() admin: CurrentAdminInfo, @Body() body: unknown) {
    const created = await this.integrations.call(EXPORT_OPERATIONS.create, caller(admin), { body: objectBody(body) }, exportIntegrationReply);
    await this.audit.record(admin, 'integration.created', created.id, describe(created));
    return created;
  }

  @Get()
  @ApiListIntegrations()
  list(@CurrentAdmin() admin: CurrentAdminInfo) {
    return this.integrations.call(EXPORT_OPERATIONS.list, caller(admin), {}, exportIntegrationListReply);
  }

  @Get(':id')
  @ApiGetIntegration()
  get(@CurrentAdmin() admin: CurrentAdminInfo, @Param('id') id: string) {
    return this.integrations.call(EXPORT_OPERATIONS.get, caller(admin), { integration_id: id.slice(0, 100) }, exportIntegrationReply);
  }

  @Patch(':id')
  @ApiUpdateIntegration()
  async update(@CurrentAdmin() admin: CurrentAdminInfo, @Param('id') id: string, @Body() body: unknown) {
    const changes = objectBody(body);
    const updated = await this.integrations.call(
      EXPORT_OPERATIONS.update,
      caller(admin),
      { integration_id: id.slice(0, 100), body: changes },
      exportIntegrationReply,
    );
    await this.audit.record(admin, 'integration.changed', updated.id, `${Object.keys(changes).join(', ')} (now ${updated.status})`);
    return updated;
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiDeleteIntegration()
  async delete(@CurrentAdmin() admin: CurrentAdminInfo, @Param('id') id: string) {
    const deleted = await this.integrations.call(EXPORT_OPERATIONS.delete, caller(admin), { integration_id: id.slice(0, 100) }, exportDeleteReply);
    await this.audit.record(admin, 'integration.deleted', deleted.id);
  }

  @Post(':id/runs')
  @HttpCode(202)
  @ApiQueueRun()
  async queueRun(@CurrentAdmin() admin: CurrentAdminInfo, @Param('id') id: string, @Body() body: unknown) {
    // An empty body is yesterday; anything sent must be a JSON object.
    const payload = body === undefined || body === null ? {} : objectBody(body);
    const queued = await this.integrations.call(
      EXPORT_OPERATIONS.queueRun,
      caller(admin),
      { integration_id: id.slice(0, 100), body: payload },
      exportRunQueuedReply,
    );
    await this.audit.record(admin, 'integration.run_queued', id.slice(0, 100), `${queued.from} to ${queued.to}`);
    return queued;
  }

  @Get(':id/runs')
  @ApiListRuns()
  listRuns(@CurrentAdmin() admin: CurrentAdminInfo, @Param('id') id: string) {
    return this.integrations.call(EXPORT_OPERATIONS.listRuns, caller(admin), { integration_id: id.slice(0, 100) }, exportRunListReply);
  }

  @Get(':id/runs/:runId')
  @ApiGetRun()
  getRun(@CurrentAdmin() admin: CurrentAdminInfo, @Param('id') id: string, @Param('runId') runId: string) {
    return this.integrations.call(EXPORT_OPERATIONS.getRun, caller(admin), { integration_id: id.slice(0, 100), run_id: runId.slice(0, 100) }, exportRunReply);
  }
}
