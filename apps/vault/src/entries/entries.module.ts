import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { AuditRelay } from '../audit/audit-relay';
import { RootKeyRing } from '../keys/root-key-ring';
import { EntriesHandler } from './entries.handler';
import { VaultEntriesService } from './vault-entries.service';

/** Sealed entries behind NATS request/reply; the only module that loads the root key ring. */
@Module({
  providers: [
    { provide: RootKeyRing, inject: [APP_CONFIG], useFactory: (config: AppConfig) => RootKeyRing.load(config) },
    AuditRelay,
    VaultEntriesService,
    EntriesHandler,
  ],
})
export class EntriesModule {}
