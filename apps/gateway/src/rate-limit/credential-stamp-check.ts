import { credentialStampKey } from '@meter/contracts';
import type { StampCheck } from './rate-limit-decision';

/**
 * The stamp the rate-limit script compares for a credential's budget: its key, and the
 * version of the credential the request was checked against (docs/gateway-security.md,
 * "Changes take effect before the answer").
 */
export function credentialStampCheck(credentialId: string, version: number): StampCheck {
  return { key: credentialStampKey(credentialId), version };
}
