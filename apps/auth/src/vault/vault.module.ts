import { Module } from '@nestjs/common';
import { VaultClient } from './vault-client';
import { VaultEntryUsers } from './vault-entry-users';
import { VaultController } from './vault.controller';

/** `/organization-vault`: admin routes forwarded to the vault service over NATS request/reply. */
@Module({ controllers: [VaultController], providers: [VaultClient, VaultEntryUsers] })
export class VaultModule {}
