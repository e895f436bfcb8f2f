import { randomBytes } from 'node:crypto';
import { hashInWorker, verifyInWorker } from './password-worker';

export interface PasswordHashParams {
  readonly opsLimit: number;
  readonly memLimit: number;
}

/** libsodium's INTERACTIVE limits for Argon2id: 2 passes, 64 MiB. */
export const DEFAULT_PASSWORD_PARAMS: PasswordHashParams = Object.freeze({ opsLimit: 2, memLimit: 64 * 1024 * 1024 });

/** libsodium's minimum limits: for tests only, far too cheap to protect a real password. */
export const INSECURE_TEST_PASSWORD_PARAMS: PasswordHashParams = Object.freeze({ opsLimit: 1, memLimit: 8 * 1024 });

// Hashing and verifying run in a worker thread (password-worker.ts): Argon2id
// at the INTERACTIVE limits takes about 150 ms, which would otherwise stop
// every other request of the process for as long.

/**
 * Argon2id hash in the self-describing `$argon2id$v=19$m=...,t=...,p=1$salt$hash`
 * form. The password is NFKC-normalised (NIST SP 800-63B) so the same
 * password typed on different systems verifies.
 */
export async function hashPassword(password: string, params: PasswordHashParams = DEFAULT_PASSWORD_PARAMS): Promise<string> {
  return hashInWorker(normalize(password), params.opsLimit, params.memLimit);
}

/**
 * Never throws: a malformed hash is just `false`. Given no hash (unknown
 * account) it verifies against {@link dummyPasswordHash} and returns
 * false, so an unknown email takes as long as a wrong password:
 * `verifyPassword(user?.passwordHash, password)`.
 */
export async function verifyPassword(hash: string | null | undefined, password: string): Promise<boolean> {
  const known = typeof hash === 'string' && hash !== '';
  const against = known ? hash : await dummyPasswordHash();
  try {
    return (await verifyInWorker(against, normalize(password))) && known;
  } catch {
    return false;
  }
}

/** True when the hash was made with other limits (or is unreadable): rehash after a successful login. */
export function passwordNeedsRehash(hash: string, params: PasswordHashParams = DEFAULT_PASSWORD_PARAMS): boolean {
  // Read from the hash itself, as libsodium's crypto_pwhash_str_needs_rehash does (m in KiB, t passes,
  // one lane): no libsodium needed in this thread, the hashing happens in the worker.
  const match = ARGON2ID_PARAMS.exec(typeof hash === 'string' ? hash : '');
  return !match || Number(match[1]) * 1024 !== params.memLimit || Number(match[2]) !== params.opsLimit;
}

const ARGON2ID_PARAMS = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=1\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/;

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
