import { Module } from '@nestjs/common';
import { CREDENTIAL_RING, CredentialRingModule } from '../credentials/credential-ring';
import { PAGE_TOKEN_KEYS, pageTokenKeys } from '../paging/page-token-keys';
import { AlertsController } from './alerts.controller';

@Module({
  imports: [CredentialRingModule],
  controllers: [AlertsController],
  providers: [{ provide: PAGE_TOKEN_KEYS, inject: [CREDENTIAL_RING], useFactory: pageTokenKeys }],
})
export class AlertsModule {}
