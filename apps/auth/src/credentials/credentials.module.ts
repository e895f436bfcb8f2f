import { Module } from '@nestjs/common';
import { credentialRingProvider } from './credential-keyring';
import { CredentialsController } from './credentials.controller';
import { CredentialsService } from './credentials.service';
import { CredentialLookupResponder } from './credential-lookup.responder';
import { CredentialStamps } from './credential-stamps';
import { CredentialUsageListener } from './credential-usage.listener';

@Module({
  controllers: [CredentialsController],
  providers: [CredentialsService, CredentialStamps, CredentialLookupResponder, CredentialUsageListener, credentialRingProvider],
})
export class CredentialsModule {}
