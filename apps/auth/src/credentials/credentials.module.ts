import { Module } from '@nestjs/common';
import { credentialRingProvider } from './credential-keyring';
import { CredentialsController } from './credentials.controller';
import { CredentialsService } from './credentials.service';
import { CredentialUsageListener } from './credential-usage.listener';

@Module({
  controllers: [CredentialsController],
  providers: [CredentialsService, CredentialUsageListener, credentialRingProvider],
})
export class CredentialsModule {}
