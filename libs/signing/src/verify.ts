import { timingSafeEqual } from 'node:crypto';
import { SHA256_HEX_RE } from './grammar';
import { signatureBytes, type SignInput } from './sign';

export interface VerifyInput extends SignInput {
  /** The signature received in the Authorization header. */
  signature: string;
}

/**
 * Recomputes the signature of the request as received and compares it with the
 * one sent, in constant time (`crypto.timingSafeEqual` on equal-length buffers).
 *
 * Returns `false`, never throws, for any mismatch or unusable input: a
 * signature that is not 64 lowercase hex (including `public`), a length
 * mismatch, an empty secret, a target or method that is not signable.
 * It does not check the timestamp window: see `timestampWithinSkew`.
 */
export function verifySignature(input: VerifyInput): boolean {
  try {
    const { signature } = input;
    if (typeof signature !== 'string' || !SHA256_HEX_RE.test(signature)) return false;
    // Both sides as the 32 bytes of the MAC (the hex was checked above, so it decodes to 32).
    const expected = signatureBytes(input).mac;
    const received = Buffer.from(signature, 'hex');
    if (expected.length !== received.length) return false;
    return timingSafeEqual(expected, received);
  } catch {
    return false;
  }
}
