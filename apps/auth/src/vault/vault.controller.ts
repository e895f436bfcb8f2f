import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, UseGuards } from '@nestjs/common';
import { isVaultEntryId, vaultDeleteReply, vaultListReply, vaultUpsertReply } from '@meter/contracts';
import { notFound, validationFailed } from '@meter/http';
import { AuditTrail } from '../audit/audit-trail';
import { AdminSessionGuard, CurrentAdmin, type CurrentAdminInfo } from '../sessions';
import { VaultClient } from './vault-client';
import { VaultEntryUsers } from './vault-entry-users';
import { ApiDeleteVaultEntry, ApiListVaultEntries, ApiUpsertVaultEntry } from './vault.openapi';
import type { VaultEntryId, VaultEntryList } from './vault.schemas';

/**
 * The organization vault of the management API. It forwards to the vault
 * service with the caller's organization, which validates and seals: this
 * process never sees the root key and keeps nothing of the request.
 */
@Controller('organization-vault')
@UseGuards(AdminSessionGuard)
export class VaultController {
  constructor(
    @Inject(VaultClient) private readonly vault: VaultClient,
    @Inject(VaultEntryUsers) private readonly users: VaultEntryUsers,
    @Inject(AuditTrail) private readonly audit: AuditTrail,
  ) {}

  @Patch()
  @HttpCode(200)
  @ApiUpsertVaultEntry()
  async upsert(@CurrentAdmin() admin: CurrentAdminInfo, @Body() body: unknown): Promise<VaultEntryId> {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw validationFailed([{ field: 'body', message: 'must be a JSON object' }]);
    }
    const { id } = await this.vault.call('upsert', { org_id: admin.orgId, actor: admin.adminId, entry: body }, vaultUpsertReply);
    // The vault accepted the body, so its namespace and type are valid names (never a secret field).
    const { namespace, type } = body as { namespace?: unknown; type?: unknown };
    await this.audit.record(admin, 'vault_entry.written', id, typeof namespace === 'string' && typeof type === 'string' ? `${namespace}/${type}` : null);
    return { id };
  }

  @Get()
  @ApiListVaultEntries()
  async list(@CurrentAdmin() admin: CurrentAdminInfo): Promise<VaultEntryList> {
    const { entries } = await this.vault.call('list', { org_id: admin.orgId, actor: admin.adminId }, vaultListReply);
    return { entries };
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiDeleteVaultEntry()
  async delete(@CurrentAdmin() admin: CurrentAdminInfo, @Param('id') id: string) {
    if (!isVaultEntryId(id)) throw notFound('no vault entry with this id in the organization');
    // The vault refuses, inside its delete, an entry an active integration opens: its runs would fail.
    const inUse = await this.users.inUse(admin.orgId, admin.adminId);
    await this.vault.call('delete', { org_id: admin.orgId, actor: admin.adminId, entry_id: id, in_use: inUse }, vaultDeleteReply);
    await this.audit.record(admin, 'vault_entry.deleted', id);
  }
}
