import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One request of signing-vectors.json with every intermediate value of its signature. */
export interface SigningVector {
  name: string;
  method: string;
  target: string;
  body_base64: string;
  body_sha256: string;
  timestamp: number;
  signing_string: string;
  signature: string;
  authorization: string;
}

export interface SigningVectorFile {
  scheme: string;
  secret_key: string;
  access_key: string;
  vectors: SigningVector[];
}

/** Where the independent SVC-HMAC vectors live (the tests of the SDK, the gateway and the package read them). */
export const SIGNING_VECTORS_PATH = join(__dirname, 'signing-vectors.json');

export function signingVectors(): SigningVectorFile {
  return JSON.parse(readFileSync(SIGNING_VECTORS_PATH, 'utf8')) as SigningVectorFile;
}
