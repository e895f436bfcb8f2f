import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ProblemException } from '@meter/http';
import type { FastifyRequest } from 'fastify';
import { csrfAdmits, CSRF_HEADER, sessionTokenOf } from './console-cookie';
import type { CurrentAdminInfo } from './current-admin';
import { SessionsService } from './sessions.service';

/** Where the guard leaves the caller for `@CurrentAdmin()`. */
export const ADMIN_KEY = 'meterAdmin';

export type RequestWithAdmin = FastifyRequest & { [ADMIN_KEY]?: CurrentAdminInfo };

/**
 * Admits a request carrying `Authorization: Bearer <session token>` of a
 * live session of an active admin, or, without that header, the console's
 * session cookie holding such a token; anything else is 401 problem+json.
 * A state-changing request authenticated by the cookie must also carry the
 * session's CSRF token (`X-CSRF-Token`), else 403 `csrf_failed`.
 * Use with `@UseGuards(AdminSessionGuard)` and read the caller with `@CurrentAdmin()`.
 */
@Injectable()
export class AdminSessionGuard implements CanActivate {
  constructor(@Inject(SessionsService) private readonly sessions: SessionsService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<RequestWithAdmin>();
    const header = request.headers.authorization;
    const cookieToken = header ? undefined : sessionTokenOf(request.headers.cookie);
    if (cookieToken) {
      request[ADMIN_KEY] = await this.admitCookie(request, cookieToken);
      return true;
    }
    if (!header) throw new ProblemException(401, 'missing_authorization', 'send Authorization: Bearer <access_token> from POST /login', {}, BEARER);
    const match = /^Bearer ([^\s]+)$/i.exec(header.trim());
    if (!match) throw new ProblemException(401, 'malformed_authorization', 'expected Authorization: Bearer <access_token>', {}, BEARER);
    request[ADMIN_KEY] = await this.live(match[1]);
    return true;
  }

  private async admitCookie(request: FastifyRequest, token: string): Promise<CurrentAdminInfo> {
    const admin = await this.live(token);
    // Checked whatever the Origin: SameSite=Strict is a second line, not the only one.
    if (!csrfAdmits(request.method, token, request.headers[CSRF_HEADER])) {
      throw new ProblemException(403, 'csrf_failed', 'a console request that changes something needs the X-CSRF-Token of its session; reload the page');
    }
    return admin;
  }

  private async live(token: string): Promise<CurrentAdminInfo> {
    const admin = await this.sessions.authenticate(token);
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
    return admin;
  }
}

const BEARER = { 'WWW-Authenticate': 'Bearer' };
