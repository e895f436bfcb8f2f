import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { parseBody } from '../common/parse-body';
import { AdminSessionGuard } from '../sessions/admin-session.guard';
import type { CurrentAdminInfo } from '../sessions/current-admin';
import { CurrentAdmin } from '../sessions/current-admin.decorator';
import {
  createCredentialRequest,
  updateCredentialRequest,
  type AvailableScopes,
  type CreatedCredential,
  type Credential,
  type CredentialList,
} from './credential-schemas';
import { ApiAvailableScopes, ApiCreateCredential, ApiGetCredential, ApiListCredentials, ApiRevokeCredential, ApiUpdateCredential } from './credentials.openapi';
import { CredentialsService } from './credentials.service';

@Controller('org-api-credentials')
@UseGuards(AdminSessionGuard)
export class CredentialsController {
  constructor(@Inject(CredentialsService) private readonly credentials: CredentialsService) {}

  @Get('available-scopes')
  @ApiAvailableScopes()
  async availableScopes(@CurrentAdmin() admin: CurrentAdminInfo): Promise<AvailableScopes> {
    return { scopes: await this.credentials.availableScopes(admin) };
  }

  @Post()
  @HttpCode(201)
  @ApiCreateCredential()
  create(@CurrentAdmin() admin: CurrentAdminInfo, @Body() body: unknown): Promise<CreatedCredential> {
    return this.credentials.create(admin, parseBody(createCredentialRequest, body));
  }

  @Get()
  @ApiListCredentials()
  async list(@CurrentAdmin() admin: CurrentAdminInfo): Promise<CredentialList> {
    return { credentials: await this.credentials.list(admin) };
  }

  @Get(':id')
  @ApiGetCredential()
  get(@CurrentAdmin() admin: CurrentAdminInfo, @Param('id') id: string): Promise<Credential> {
    return this.credentials.get(admin, id);
  }

  @Patch(':id')
  @ApiUpdateCredential()
  update(@CurrentAdmin() admin: CurrentAdminInfo, @Param('id') id: string, @Body() body: unknown): Promise<Credential> {
    return this.credentials.update(admin, id, parseBody(updateCredentialRequest, body));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiRevokeCredential()
  async revoke(@CurrentAdmin() admin: CurrentAdminInfo, @Param('id') id: string) {
    await this.credentials.revoke(admin, id);
  }
}
