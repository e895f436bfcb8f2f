import type { CidrRange } from '@meter/config';

/** What the gateway knows about one credential, built from auth events; lives in memory only. */
export interface CredentialRecord {
  credentialId: string;
  orgId: string;
  accessKey: string;
  type: 'secret' | 'public';
  scopes: readonly string[];
  /** As the event gave them, for logs and docs. */
  allowedCidrs: readonly string[];
  /** Parsed once when the event arrives, so a request only matches. Empty: any address. */
  allowedRanges: readonly CidrRange[];
  /** True when some listed CIDR could not be parsed: the credential then admits no address (fail closed). */
  cidrsInvalid: boolean;
  /** The opened secret key; undefined for public credentials or when it could not be opened. */
  secretKey?: string;
  status: 'active' | 'revoked';
  /** epoch ms after which the credential answers 401 credential_expired; null: never. */
  expiresAt: number | null;
  /** Exact origins a browser may call from (`Origin`); empty: any. */
  allowedOrigins: readonly string[];
  /** The devices the credential sees; null: every device of its organization. */
  deviceIds: ReadonlySet<number> | null;
  /** Aggregate version of the last event applied; older or repeated events are ignored. */
  version: number;
}
