import { Body, Controller, HttpCode, Inject, Post, Req, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { parseBody } from '../common/parse-body';
import { RequestAddress } from '../common/request-address';
import { AdminSessionGuard } from './admin-session.guard';
import type { CurrentAdminInfo } from './current-admin';
import { CurrentAdmin } from './current-admin.decorator';
import { loginRequest, type Session } from './login.schema';
import { ApiLogin, ApiLogout } from './sessions.openapi';
import { SessionsService } from './sessions.service';

@Controller()
export class SessionsController {
  constructor(
    @Inject(SessionsService) private readonly sessions: SessionsService,
    @Inject(RequestAddress) private readonly address: RequestAddress,
  ) {}

  @Post('login')
  @HttpCode(200)
  @ApiLogin()
  async login(@Body() body: unknown, @Req() request: FastifyRequest): Promise<Session> {
    const { email, password } = parseBody(loginRequest, body);
    const session = await this.sessions.login(email, password, this.address.of(request));
    return { access_token: session.accessToken, token_type: 'Bearer', expires_in: session.expiresIn };
  }

  @Post('logout')
  @HttpCode(204)
  @ApiLogout()
  @UseGuards(AdminSessionGuard)
  async logout(@CurrentAdmin() admin: CurrentAdminInfo) {
    await this.sessions.logout(admin);
  }
}
