import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { CurrentAdminInfo } from '../sessions/current-admin';
import type { AuditAction } from './audit-actions';
import { insertAuditEntries } from './audit-store';

/**
 * Records the changes auth forwards to the vault and the integrations service, once the
 * service has answered that it made them: those services own their tables, so auth keeps
 * its own line of who asked. Metadata only; a caller passes ids and names, never a body.
 */
@Injectable()
export class AuditTrail {
  private readonly log = new Logger('AuditTrail');

  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async record(admin: CurrentAdminInfo, action: AuditAction, targetId: string | null, detail: string | null = null): Promise<void> {
    try {
      await insertAuditEntries(this.dataSource, [{ orgId: admin.orgId, occurredAt: new Date(), action, actorId: admin.adminId, targetId, detail }]);
    } catch (error) {
      // The change is made and answered for; failing the request now would invite a retry of a change already done.
      this.log.error(`audit line ${action} ${targetId ?? ''} for ${admin.orgId} not recorded: ${(error as Error).message}`);
    }
  }
}
