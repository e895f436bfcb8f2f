import { accessKeyKind } from './access-key';
import { authorizationHeader } from './authorization-header';
import type { BodyInput } from './body-hash';
import { PUBLIC_SIGNATURE } from './constants';
import { sign } from './sign';

export interface SignRequestInput {
  /** `sk_live_...` (signed with `secretKey`) or `pk_live_...` (sends signature `public`). */
  accessKey: string;
  /** Required for a `sk_live_` key; ignored for a `pk_live_` key. */
  secretKey?: string;
  method: string;
  /**
   * Origin-form target exactly as it will be sent, e.g. `url.pathname + url.search`
   * of the `URL` you pass to `fetch`.
   */
  target: string;
  /** The exact bytes/string you send as the body; omit when there is none. */
  body?: BodyInput;
  /** Unix seconds; defaults to the current time. */
  timestamp?: number;
}

/** Headers to add to the request. Nothing else is needed by the scheme. */
export interface SignedHeaders {
  authorization: string;
}

/**
 * Signs a request for the gateway and returns the headers to send.
 * Throws `TypeError` on unusable input (malformed access key, missing secret
 * key, a target that is not origin-form, ...).
 */
export function signRequest(input: SignRequestInput): SignedHeaders {
  const { accessKey, secretKey, method, target, body } = input;
  const timestamp = input.timestamp ?? Math.floor(Date.now() / 1000);
  const kind = accessKeyKind(accessKey);
  if (kind === undefined) {
    throw new TypeError('accessKey must be sk_live_ or pk_live_ followed by 1..128 of [A-Za-z0-9_-]');
  }
  if (kind === 'public') {
    return { authorization: authorizationHeader({ accessKey, signature: PUBLIC_SIGNATURE, timestamp }) };
  }
  if (secretKey === undefined) {
    throw new TypeError('secretKey is required for a sk_live_ access key');
  }
  const { signature } = sign({ secretKey, method, target, body, timestamp });
  return { authorization: authorizationHeader({ accessKey, signature, timestamp }) };
}
