import { Module } from '@nestjs/common';
import { VaultClient } from './vault-client';
import { VaultController } from './vault.controller';

/** `/organization-vault`: admin routes forwarded to the vault service over NATS request/reply. */
@Module({ controllers: [VaultController], providers: [VaultClient] })
export class VaultModule {}
