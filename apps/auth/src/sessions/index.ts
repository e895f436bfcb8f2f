export { AdminSessionGuard } from './admin-session.guard';
export { CurrentAdmin } from './current-admin.decorator';
export type { CurrentAdminInfo } from './current-admin';
export { SessionsModule } from './sessions.module';
export { SessionsService } from './sessions.service';
