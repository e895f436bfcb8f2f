import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { credentialType } from '@meter/contracts';

type CredentialType = z.infer<typeof credentialType>;

const PREFIX: Record<CredentialType, string> = { secret: 'sk_live_', public: 'pk_live_' };

/** `sk_live_` / `pk_live_` and 24 random bytes in base64url: unguessable, yet it is an identifier, not a secret. */
export function newAccessKey(type: CredentialType): string {
  return `${PREFIX[type]}${randomBytes(24).toString('base64url')}`;
}

/** 32 random bytes (256 bits, the HMAC-SHA256 block strength) in base64url; the HMAC key is this text as UTF-8. */
export function newSecretKey(): string {
  return randomBytes(32).toString('base64url');
}
