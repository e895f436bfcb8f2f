import { Module } from '@nestjs/common';
import { credentialRingProvider } from './credential-keyring';
import { CredentialsController } from './credentials.controller';
import { CredentialsService } from './credentials.service';

@Module({
  controllers: [CredentialsController],
  providers: [CredentialsService, credentialRingProvider],
})
export class CredentialsModule {}
