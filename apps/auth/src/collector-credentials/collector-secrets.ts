import { randomBytes } from 'node:crypto';
import { randomToken } from '@meter/crypto';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** `col_` and 16 lower-case base32 characters (80 random bits): an MQTT user name any client accepts. */
export function newCollectorUsername(): string {
  const bytes = randomBytes(10);
  let bits = 0;
  let value = 0;
  let text = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      text += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return `col_${text}`;
}

/** `<username>.<43 base64url characters>` (256 random bits): the password names its credential, so an HTTP bearer needs nothing else. */
export function newCollectorPassword(username: string): string {
  return `${username}.${randomToken(32)}`;
}
