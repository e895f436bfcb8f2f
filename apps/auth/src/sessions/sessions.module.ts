import { Global, Module } from '@nestjs/common';
import { RequestAddress } from '../common/request-address';
import { AdminSessionGuard } from './admin-session.guard';
import { ConsoleSessionController } from './console-session.controller';
import { LoginThrottle } from './login-throttle';
import { SessionsController } from './sessions.controller';
import { SessionsService } from './sessions.service';

/**
 * Login, logout and the session guard. Global, so any feature module of
 * the auth app (credentials, vault) can put `@UseGuards(AdminSessionGuard)`
 * on its controllers without importing this module.
 */
@Global()
@Module({
  controllers: [SessionsController, ConsoleSessionController],
  providers: [SessionsService, LoginThrottle, AdminSessionGuard, RequestAddress],
  exports: [SessionsService, AdminSessionGuard, RequestAddress],
})
export class SessionsModule {}
