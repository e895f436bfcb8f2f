import { createHmac } from 'node:crypto';
import type { KeyRing } from '@meter/crypto';

export const PAGE_TOKEN_KEYS = Symbol('PAGE_TOKEN_KEYS');

/**
 * Page-token keys derived from the gateway's CREDENTIAL_KEYRING (one per
 * ring key, the active first), so every gateway replica accepts every
 * other's tokens and no extra secret has to be configured.
 */
export function pageTokenKeys(ring: KeyRing): Uint8Array[] {
  return ring.map((k) => new Uint8Array(createHmac('sha256', k.key).update('meter/devices-page-token').digest()));
}
