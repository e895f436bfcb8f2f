import { Module } from '@nestjs/common';
import { CREDENTIAL_RING, CredentialRingModule } from '../credentials/credential-ring';
import { DevicesController } from './devices.controller';
import { PAGE_TOKEN_KEYS, pageTokenKeys } from '../paging/page-token-keys';

@Module({
  imports: [CredentialRingModule],
  controllers: [DevicesController],
  providers: [{ provide: PAGE_TOKEN_KEYS, inject: [CREDENTIAL_RING], useFactory: pageTokenKeys }],
})
export class DevicesModule {}
