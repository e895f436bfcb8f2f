import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SIGNING_VECTORS_PATH, signingVectors } from './signing-vectors.fixture';
import { authorizationHeader, bodySha256Hex, parseAuthorization, sign, signingString, signRequest, verifySignature } from './index';

const copyPath = SIGNING_VECTORS_PATH;
const sharedPath = join(__dirname, '../../../../shared/spec/signing-vectors.json');
const file = signingVectors();
const { secret_key: secretKey, access_key: accessKey } = file;

function flipBitInHex(hex: string, bit: number): string {
  const bytes = Buffer.from(hex, 'hex');
  bytes[bit >> 3] ^= 1 << (bit & 7);
  return bytes.toString('hex');
}

describe('independent SVC-HMAC vectors', () => {
  it('has a non-trivial set of vectors for the SVC-HMAC scheme', () => {
    expect(file.scheme).toBe('SVC-HMAC');
    expect(file.vectors.length).toBeGreaterThanOrEqual(11);
  });

  it.skipIf(!existsSync(sharedPath))('the local copy is byte-identical to ../shared/spec/signing-vectors.json', () => {
    expect(readFileSync(copyPath).equals(readFileSync(sharedPath))).toBe(true);
  });

  describe.each(file.vectors.map((v) => [v.name, v] as const))('%s', (_name, v) => {
    const body = Buffer.from(v.body_base64, 'base64');

    it('reproduces body_sha256, signing_string, signature and the header', () => {
      expect(bodySha256Hex(body)).toBe(v.body_sha256);
      expect(signingString({ method: v.method, target: v.target, bodySha256: v.body_sha256, timestamp: v.timestamp })).toBe(v.signing_string);
      const signed = sign({ secretKey, method: v.method, target: v.target, body, timestamp: v.timestamp });
      expect(signed.signingString).toBe(v.signing_string);
      expect(signed.signature).toBe(v.signature);
      expect(authorizationHeader({ accessKey, signature: signed.signature, timestamp: v.timestamp })).toBe(v.authorization);
      expect(signRequest({ accessKey, secretKey, method: v.method, target: v.target, body, timestamp: v.timestamp })).toEqual({
        authorization: v.authorization,
      });
    });

    it('a string body hashes like its UTF-8 bytes', () => {
      expect(bodySha256Hex(body.toString('utf8'))).toBe(v.body_sha256);
    });

    it('verifySignature accepts it', () => {
      expect(
        verifySignature({
          secretKey,
          method: v.method,
          target: v.target,
          body,
          timestamp: v.timestamp,
          signature: v.signature,
        }),
      ).toBe(true);
    });

    it('verifySignature rejects a one-bit change of signature, body, timestamp, target or key', () => {
      const base = { secretKey, method: v.method, target: v.target, body, timestamp: v.timestamp };
      for (const bit of [0, 1, 7, 100, 255]) {
        expect(verifySignature({ ...base, signature: flipBitInHex(v.signature, bit) })).toBe(false);
      }
      const flippedBody = body.length > 0 ? Buffer.from(body) : Buffer.from([0]);
      if (body.length > 0) flippedBody[body.length - 1] ^= 1;
      expect(verifySignature({ ...base, body: flippedBody, signature: v.signature })).toBe(false);
      expect(verifySignature({ ...base, timestamp: v.timestamp ^ 1, signature: v.signature })).toBe(false);
      const lastChar = v.target.charCodeAt(v.target.length - 1);
      const target = v.target.slice(0, -1) + String.fromCharCode(lastChar ^ 1);
      expect(verifySignature({ ...base, target, signature: v.signature })).toBe(false);
      const key = secretKey.slice(0, -1) + String.fromCharCode(secretKey.charCodeAt(secretKey.length - 1) ^ 1);
      expect(verifySignature({ ...base, secretKey: key, signature: v.signature })).toBe(false);
    });

    it('parseAuthorization parses its header', () => {
      expect(parseAuthorization(v.authorization)).toEqual({
        ok: true,
        accessKey,
        keyKind: 'secret',
        signature: v.signature,
        timestamp: v.timestamp,
      });
    });
  });
});
