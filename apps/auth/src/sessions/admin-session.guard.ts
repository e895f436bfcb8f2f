import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ProblemException } from '@meter/http';
import type { FastifyRequest } from 'fastify';
import type { CurrentAdminInfo } from './current-admin';
import { SessionsService } from './sessions.service';

/** Where the guard leaves the caller for `@CurrentAdmin()`. */
export const ADMIN_KEY = 'meterAdmin';

export type RequestWithAdmin = FastifyRequest & { [ADMIN_KEY]?: CurrentAdminInfo };

/**
 * Admits a request carrying `Authorization: Bearer <session token>` of a
 * live session of an active admin; anything else is 401 problem+json.
 * Use with `@UseGuards(AdminSessionGuard)` and read the caller with `@CurrentAdmin()`.
 */
@Injectable()
export class AdminSessionGuard implements CanActivate {
  constructor(@Inject(SessionsService) private readonly sessions: SessionsService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<RequestWithAdmin>();
    const header = request.headers.authorization;
    if (!header) throw new ProblemException(401, 'missing_authorization', 'send Authorization: Bearer <access_token> from POST /login', {}, BEARER);
    const match = /^Bearer ([^\s]+)$/i.exec(header.trim());
    if (!match) throw new ProblemException(401, 'malformed_authorization', 'expected Authorization: Bearer <access_token>', {}, BEARER);
    const admin = await this.sessions.authenticate(match[1]);
    if (!admin) {
      throw new ProblemException(
        401,
        'invalid_session',
        'the session token is unknown, expired or ended; log in again',
        {},
        {
          'WWW-Authenticate': 'Bearer error="invalid_token"',
        },
      );
    }
    request[ADMIN_KEY] = admin;
    return true;
  }
}

const BEARER = { 'WWW-Authenticate': 'Bearer' };
