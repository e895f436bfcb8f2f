import { Body, Controller, Delete, Get, HttpCode, Inject, Post, Req, Res, UseGuards } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseBody } from '../common/parse-body';
import { RequestAddress } from '../common/request-address';
import { AdminSessionGuard } from './admin-session.guard';
import { clearedSessionCookie, csrfTokenFor, sessionCookie, sessionTokenOf } from './console-cookie';
import { ApiConsoleSession, ApiConsoleSignIn, ApiConsoleSignOut } from './console-session.openapi';
import type { CurrentAdminInfo } from './current-admin';
import { CurrentAdmin } from './current-admin.decorator';
import { loginRequest, type ConsoleSession } from './login.schema';
import { SessionsService } from './sessions.service';

/** The admin console's cookie session (contract section 11): sign in, who am I, sign out. */
@Controller('session')
export class ConsoleSessionController {
  constructor(
    @Inject(SessionsService) private readonly sessions: SessionsService,
    @Inject(RequestAddress) private readonly address: RequestAddress,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiConsoleSignIn()
  async signIn(@Body() body: unknown, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<ConsoleSession> {
    const { email, password } = parseBody(loginRequest, body);
    const session = await this.sessions.login(email, password, this.address.of(request));
    const admin = await this.sessions.authenticate(session.accessToken);
    reply.header('set-cookie', sessionCookie(session.accessToken, session.expiresIn, this.secure(request)));
    reply.header('cache-control', 'no-store');
    return { email: admin?.email ?? email, org_id: admin?.orgId ?? '', csrf_token: csrfTokenFor(session.accessToken) };
  }

  @Get()
  @ApiConsoleSession()
  @UseGuards(AdminSessionGuard)
  current(@CurrentAdmin() admin: CurrentAdminInfo, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): ConsoleSession {
    reply.header('cache-control', 'no-store');
    const token = request.headers.authorization ? undefined : sessionTokenOf(request.headers.cookie);
    return { email: admin.email, org_id: admin.orgId, csrf_token: token ? csrfTokenFor(token) : '' };
  }

  @Delete()
  @HttpCode(204)
  @ApiConsoleSignOut()
  @UseGuards(AdminSessionGuard)
  async signOut(@CurrentAdmin() admin: CurrentAdminInfo, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.sessions.logout(admin);
    reply.header('set-cookie', clearedSessionCookie(this.secure(request)));
  }

  // Secure outside development (contract section 11), and over HTTPS whatever the mode.
  private secure(request: FastifyRequest): boolean {
    return this.config.NODE_ENV === 'production' || request.protocol === 'https';
  }
}
