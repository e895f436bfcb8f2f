import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ADMIN_KEY, type RequestWithAdmin } from './admin-session.guard';
import type { CurrentAdminInfo } from './current-admin';

/** The caller admitted by AdminSessionGuard: `{ adminId, orgId, email, sessionId }`. */
export const CurrentAdmin = createParamDecorator((_data: unknown, context: ExecutionContext): CurrentAdminInfo => {
  const admin = context.switchToHttp().getRequest<RequestWithAdmin>()[ADMIN_KEY];
  // Only reachable when a route forgot the guard: fail loudly rather than serve without an organization.
  if (!admin) throw new Error('@CurrentAdmin() used on a route without AdminSessionGuard');
  return admin;
});
