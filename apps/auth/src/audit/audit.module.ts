import { Global, Module } from '@nestjs/common';
import { AuditLogController } from './audit-log.controller';
import { AuditTrail } from './audit-trail';

/** `/audit-log`, and the AuditTrail the forwarding controllers record their changes with. */
@Global()
@Module({ controllers: [AuditLogController], providers: [AuditTrail], exports: [AuditTrail] })
export class AuditModule {}
