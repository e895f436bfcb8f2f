import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, UseGuards } from '@nestjs/common';
import { parseBody } from '../common/parse-body';
import { AdminSessionGuard } from '../sessions/admin-session.guard';
import type { CurrentAdminInfo } from '../sessions/current-admin';
import { CurrentAdmin } from '../sessions/current-admin.decorator';
import { createCollectorCredentialRequest, type CreatedCollectorCredential, type UnmatchedUplinkList } from './collector-credential-schemas';
import {
  ApiCreateCollectorCredential,
  ApiListCollectorCredentials,
  ApiListUnmatchedUplinks,
  ApiRevokeCollectorCredential,
} from './collector-credentials.openapi';
import { CollectorCredentialsService } from './collector-credentials.service';

@Controller('collector-credentials')
@UseGuards(AdminSessionGuard)
export class CollectorCredentialsController {
  constructor(@Inject(CollectorCredentialsService) private readonly credentials: CollectorCredentialsService) {}

  @Post()
  @HttpCode(201)
  @ApiCreateCollectorCredential()
  create(@CurrentAdmin() admin: CurrentAdminInfo, @Body() body: unknown): Promise<CreatedCollectorCredential> {
    return this.credentials.create(admin, parseBody(createCollectorCredentialRequest, body));
  }

  @Get()
  @ApiListCollectorCredentials()
  async list(@CurrentAdmin() admin: CurrentAdminInfo) {
    return { collector_credentials: await this.credentials.list(admin) };
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiRevokeCollectorCredential()
  async revoke(@CurrentAdmin() admin: CurrentAdminInfo, @Param('id') id: string) {
    await this.credentials.revoke(admin, id);
  }

  @Get(':id/unmatched')
  @ApiListUnmatchedUplinks()
  async unmatched(@CurrentAdmin() admin: CurrentAdminInfo, @Param('id') id: string): Promise<UnmatchedUplinkList> {
    return { unmatched: await this.credentials.unmatched(admin, id) };
  }
}
