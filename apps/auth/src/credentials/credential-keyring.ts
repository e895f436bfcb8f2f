import { Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { keyRingSource, loadKeyRing, type KeyRing } from '@meter/crypto';

export const CREDENTIAL_RING = Symbol('CREDENTIAL_RING');

/** The CREDENTIAL_KEYRING ring (or the development file) every secret is sealed under. */
export function loadCredentialRing(config: AppConfig, log: { warn(message: string): void } = new Logger('keys')): Promise<KeyRing> {
  return loadKeyRing(keyRingSource('CREDENTIAL_KEYRING', config, log));
}

export const credentialRingProvider = {
  provide: CREDENTIAL_RING,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig) => loadCredentialRing(config),
};
