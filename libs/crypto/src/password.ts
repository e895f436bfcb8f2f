import { randomBytes } from 'node:crypto';
import { sodiumLib, sodiumReady } from './sodium';

export interface PasswordHashParams {
  readonly opsLimit: number;
  readonly memLimit: number;
}

/** libsodium's INTERACTIVE limits for Argon2id: 2 passes, 64 MiB. */
export const DEFAULT_PASSWORD_PARAMS: PasswordHashParams = Object.freeze({ opsLimit: 2, memLimit: 64 * 1024 * 1024 });

/** libsodium's minimum limits: for tests only, far too cheap to protect a real password. */
export const INSECURE_TEST_PASSWORD_PARAMS: PasswordHashParams = Object.freeze({ opsLimit: 1, memLimit: 8 * 1024 });

// Async although libsodium is synchronous (and blocks the event loop for
// about as long as the hash takes): callers are written for a future move
// to a worker thread without a signature change.

/**
 * Argon2id hash in the self-describing `$argon2id$v=19$m=...,t=...,p=1$salt$hash`
 * form. The password is NFKC-normalised (NIST SP 800-63B) so the same
 * password typed on different systems verifies.
 */
export async function hashPassword(password: string, params: PasswordHashParams = DEFAULT_PASSWORD_PARAMS): Promise<string> {
  await sodiumReady();
  return sodiumLib().crypto_pwhash_str(normalize(password), params.opsLimit, params.memLimit);
}

/**
 * Never throws: a malformed hash is just `false`. Given no hash (unknown
 * account) it verifies against {@link dummyPasswordHash} and returns
 * false, so an unknown email takes as long as a wrong password:
 * `verifyPassword(user?.passwordHash, password)`.
 */
export async function verifyPassword(hash: string | null | undefined, password: string): Promise<boolean> {
  await sodiumReady();
  const known = typeof hash === 'string' && hash !== '';
  const against = known ? hash : await dummyPasswordHash();
  try {
    return sodiumLib().crypto_pwhash_str_verify(against, normalize(password)) && known;
  } catch {
    return false;
  }
}

/** True when the hash was made with other limits (or is unreadable): rehash after a successful login. */
export function passwordNeedsRehash(hash: string, params: PasswordHashParams = DEFAULT_PASSWORD_PARAMS): boolean {
  try {
    return sodiumLib().crypto_pwhash_str_needs_rehash(hash, params.opsLimit, params.memLimit);
  } catch {
    return true;
  }
}

const dummies = new Map<string, Promise<string>>();

/**
 * A hash of a random password nobody knows, made once per process and
 * parameter set, to verify against when the account does not exist.
 */
export function dummyPasswordHash(params: PasswordHashParams = DEFAULT_PASSWORD_PARAMS): Promise<string> {
  const cacheKey = `${params.opsLimit}:${params.memLimit}`;
  let dummy = dummies.get(cacheKey);
  if (!dummy) {
    dummy = hashPassword(randomBytes(32).toString('base64url'), params);
    dummies.set(cacheKey, dummy);
  }
  return dummy;
}

function normalize(password: string): string {
  if (typeof password !== 'string') throw new TypeError('password must be a string');
  return password.normalize('NFKC');
}
