import { createHmac } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { join } from 'node:path';
import type { AppConfig } from '@meter/config';
import { loadKeyRing } from '@meter/crypto';

export const PAGE_TOKEN_KEYS = Symbol('PAGE_TOKEN_KEYS');

/**
 * Page-token keys derived from the gateway's CREDENTIAL_KEYRING (one per
 * ring key, the active first), so every gateway replica accepts every
 * other's tokens and no extra secret has to be configured.
 */
export async function pageTokenKeys(config: AppConfig): Promise<Uint8Array[]> {
  const logger = new Logger('page-tokens');
  const ring = await loadKeyRing({
    name: 'CREDENTIAL_KEYRING',
    envValue: config.CREDENTIAL_KEYRING,
    production: config.NODE_ENV === 'production',
    dataDir: join(config.DATA_DIR, 'keys'),
    log: { warn: (message) => logger.warn(message) },
  });
  return ring.map((k) => new Uint8Array(createHmac('sha256', k.key).update('meter/devices-page-token').digest()));
}
