import { PUBLIC_ACCESS_KEY_PREFIX, PUBLIC_SIGNATURE, SECRET_ACCESS_KEY_PREFIX } from './constants';
import { ACCESS_KEY_RE, SHA256_HEX_RE } from './grammar';

export type AccessKeyKind = 'secret' | 'public';

/** `'secret'` for a well-formed `sk_live_` key, `'public'` for `pk_live_`, otherwise `undefined`. */
export function accessKeyKind(accessKey: unknown): AccessKeyKind | undefined {
  if (typeof accessKey !== 'string' || !ACCESS_KEY_RE.test(accessKey)) return undefined;
  if (accessKey.startsWith(SECRET_ACCESS_KEY_PREFIX)) return 'secret';
  if (accessKey.startsWith(PUBLIC_ACCESS_KEY_PREFIX)) return 'public';
  return undefined;
}

/** A well-formed secret access key: `sk_live_` + 1..128 of `[A-Za-z0-9_-]`. */
export function isSecretAccessKey(accessKey: unknown): accessKey is string {
  return accessKeyKind(accessKey) === 'secret';
}

/** A well-formed public access key: `pk_live_` + 1..128 of `[A-Za-z0-9_-]`. */
export function isPublicAccessKey(accessKey: unknown): accessKey is string {
  return accessKeyKind(accessKey) === 'public';
}

/**
 * Whether the kind of signature fits the kind of key: a public key must send
 * the literal `public`; a secret key must send a 64-lowercase-hex HMAC and
 * may never use `public`. Malformed keys allow nothing.
 */
export function signatureKindAllowed(accessKey: unknown, signature: unknown): boolean {
  if (typeof signature !== 'string') return false;
  switch (accessKeyKind(accessKey)) {
    case 'public':
      return signature === PUBLIC_SIGNATURE;
    case 'secret':
      return SHA256_HEX_RE.test(signature);
    default:
      return false;
  }
}
