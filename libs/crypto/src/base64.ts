// Strict decoders: Node's Buffer.from(x, 'base64') silently skips invalid
// characters, which would let a mangled key or ciphertext decode to
// something. A value is accepted only if it re-encodes to itself.

const BASE64URL = /^[A-Za-z0-9_-]*$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function toBase64Url(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
}

export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** Unpadded base64url; returns undefined unless the text is canonical. */
export function fromBase64Url(text: string): Uint8Array | undefined {
  if (!BASE64URL.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? new Uint8Array(bytes) : undefined;
}

/** Standard (padded) base64 or unpadded base64url; undefined unless canonical. */
export function fromAnyBase64(text: string): Uint8Array | undefined {
  if (BASE64URL.test(text)) return fromBase64Url(text);
  if (!BASE64.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? new Uint8Array(bytes) : undefined;
}
