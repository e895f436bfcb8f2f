import { createHmac } from 'node:crypto';
import { bodySha256Hex, type BodyInput } from './body-hash';
import { signingString, signingStringSha256 } from './signing-string';

export interface SignInput {
  /** The credential's secret key (keyed as its UTF-8 bytes). */
  secretKey: string;
  method: string;
  /** Raw origin-form request target as sent: `/path?query`. */
  target: string;
  /** Raw body bytes (or a string sent as UTF-8); omit for requests without body. */
  body?: BodyInput;
  /** Unix seconds, the same value sent in the header. */
  timestamp: number;
}

export interface SignResult {
  /** Lowercase hex HMAC-SHA256 of `signingString` keyed with the secret key. */
  signature: string;
  /** The exact string that was signed; handy when debugging a mismatch. */
  signingString: string;
  /** Lowercase hex SHA-256 of `signingString`: compare it with `signing_string_sha256` of a `401 invalid_signature`. */
  signingStringSha256: string;
}

/** Computes the SVC-HMAC signature of a request. Throws `TypeError` on invalid input. */
export function sign(input: SignInput): SignResult {
  const { mac, text } = signatureBytes(input);
  return { signature: mac.toString('hex'), signingString: text, signingStringSha256: signingStringSha256(text) };
}

/**
 * The signature as its 32 bytes, and the string signed: what `verifySignature` compares without hex round trips.
 * @internal Not in the package's types, which need no Node type definitions.
 */
export function signatureBytes(input: SignInput): { mac: Buffer; text: string } {
  const { secretKey, method, target, body, timestamp } = input;
  if (typeof secretKey !== 'string' || secretKey.length === 0) {
    throw new TypeError('secretKey must be a non-empty string');
  }
  const text = signingString({ method, target, bodySha256: bodySha256Hex(body), timestamp });
  return { mac: createHmac('sha256', Buffer.from(secretKey, 'utf8')).update(text, 'utf8').digest(), text };
}
