import { Controller, Get, Inject, Param, Query, UseGuards } from '@nestjs/common';
import { checkQuery, notFound } from '@meter/http';
import { DataSource } from 'typeorm';
import { AdminSessionGuard, CurrentAdmin, type CurrentAdminInfo } from '../sessions';
import { auditEntrySeq, auditPageToken, readAuditPageToken } from './audit-log-params';
import { ApiAuditEntry, ApiAuditLog } from './audit-log.openapi';
import { auditLogParams, DEFAULT_AUDIT_PAGE, type AuditEntryView, type AuditLogView } from './audit-log.schemas';
import { auditEntry, auditPage, type AuditRow } from './audit-store';

/** `/audit-log` of the management API (docs/management-api.md, "Audit log"): the caller's organization only. */
@Controller('audit-log')
@UseGuards(AdminSessionGuard)
export class AuditLogController {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  @Get()
  @ApiAuditLog()
  async list(@CurrentAdmin() admin: CurrentAdminInfo, @Query() query: unknown, @Query('next_page_token') token: unknown): Promise<AuditLogView> {
    const { action, limit = DEFAULT_AUDIT_PAGE } = checkQuery(auditLogParams, query);
    const page = await auditPage(this.dataSource, admin.orgId, { action, limit, beforeSeq: readAuditPageToken(token) });
    const last = page.rows[page.rows.length - 1];
    return { entries: page.rows.map(entryView), has_more: page.hasMore, next_page_token: page.hasMore && last ? auditPageToken(last.seq) : null };
  }

  @Get(':id')
  @ApiAuditEntry()
  async get(@CurrentAdmin() admin: CurrentAdminInfo, @Param('id') id: string): Promise<AuditEntryView> {
    const seq = auditEntrySeq(id);
    const row = seq === undefined ? undefined : await auditEntry(this.dataSource, admin.orgId, seq);
    if (!row) throw notFound('no audit entry with this id in the organization');
    return entryView(row);
  }
}

function entryView(row: AuditRow): AuditEntryView {
  return {
    id: row.seq,
    occurred_at: row.occurred_at.toISOString(),
    action: row.action as AuditEntryView['action'],
    actor: row.actor_id ? { type: 'admin', admin_id: row.actor_id, email: row.actor_email } : { type: 'platform', admin_id: null, email: null },
    target_id: row.target_id,
    detail: row.detail,
  };
}
