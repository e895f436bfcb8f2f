import { Logger, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { keyRingSource, loadKeyRing } from '@meter/crypto';

export const CREDENTIAL_RING = Symbol('CREDENTIAL_RING');

/** The CREDENTIAL_KEYRING, loaded once per process (Nest shares one module instance): it opens credential secrets and derives the page-token keys. */
@Module({
  providers: [
    {
      provide: CREDENTIAL_RING,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => {
        const logger = new Logger('keys');
        return loadKeyRing(keyRingSource('CREDENTIAL_KEYRING', config, { warn: (message) => logger.warn(message) }));
      },
    },
  ],
  exports: [CREDENTIAL_RING],
})
export class CredentialRingModule {}
