/** What limits a credential's reach (docs/gateway-security.md). */
export interface CredentialLimits {
  type: 'secret' | 'public';
  allowed_cidrs: string[];
  allowed_origins?: string[];
  device_ids?: number[] | null;
}

/**
 * A public key travels in browsers and apps: without allowed origins, a
 * device list or allowed CIDRs, whoever copies it reads every device's
 * consumption and alerts. The console warns about such keys.
 */
export function isUnlimitedPublicKey(credential: CredentialLimits): boolean {
  return (
    credential.type === 'public' &&
    credential.allowed_cidrs.length === 0 &&
    (credential.allowed_origins ?? []).length === 0 &&
    (credential.device_ids ?? null) === null
  );
}
