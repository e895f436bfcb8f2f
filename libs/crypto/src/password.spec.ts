import { beforeAll, describe, expect, it } from 'vitest';
import sodium from 'libsodium-wrappers-sumo';
import { DEFAULT_PASSWORD_PARAMS, dummyPasswordHash, hashPassword, INSECURE_TEST_PASSWORD_PARAMS, passwordNeedsRehash, verifyPassword } from './password';
import { sodiumReady } from './sodium';

const FAST = INSECURE_TEST_PASSWORD_PARAMS;

beforeAll(() => sodiumReady());

describe('password hashing', () => {
  it('defaults to libsodium INTERACTIVE limits and the tests use its minimums', () => {
    expect(DEFAULT_PASSWORD_PARAMS).toEqual({
      opsLimit: sodium.crypto_pwhash_OPSLIMIT_INTERACTIVE,
      memLimit: sodium.crypto_pwhash_MEMLIMIT_INTERACTIVE,
    });
    expect(FAST).toEqual({ opsLimit: sodium.crypto_pwhash_OPSLIMIT_MIN, memLimit: sodium.crypto_pwhash_MEMLIMIT_MIN });
  });

  it('hashes with Argon2id and a random salt, and verifies', async () => {
    const hash = await hashPassword('correct horse', FAST);
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=8,t=1,p=1\$/);
    expect(await hashPassword('correct horse', FAST)).not.toBe(hash);
    expect(await verifyPassword(hash, 'correct horse')).toBe(true);
    expect(await verifyPassword(hash, 'correct horse ')).toBe(false);
    expect(await verifyPassword(hash, '')).toBe(false);
  });

  it('verifies a password typed in another Unicode normal form', async () => {
    const composed = 'caf\u00e9';
    const decomposed = 'cafe\u0301';
    expect(await verifyPassword(await hashPassword(composed, FAST), decomposed)).toBe(true);
  });

  it('never throws on a malformed hash or a non-string password', async () => {
    for (const bad of ['', 'garbage', '$argon2id$v=19$m=8,t=1,p=1$short$x', '$2b$10$abcdefghijklmnopqrstuv']) {
      await expect(verifyPassword(bad, 'pw')).resolves.toBe(false);
    }
    const hash = await hashPassword('pw', FAST);
    await expect(verifyPassword(hash, undefined as unknown as string)).resolves.toBe(false);
  });

  it('answers false for a missing hash after verifying against the dummy', async () => {
    await expect(verifyPassword(undefined, 'pw')).resolves.toBe(false);
    await expect(verifyPassword(null, 'pw')).resolves.toBe(false);
  });

  it('says when a hash was made with other limits', async () => {
    const fast = await hashPassword('pw', FAST);
    expect(passwordNeedsRehash(fast, FAST)).toBe(false);
    expect(passwordNeedsRehash(fast)).toBe(true);
    expect(passwordNeedsRehash('garbage')).toBe(true);
  });

  it('hashes and verifies off the event loop: other work goes on meanwhile', async () => {
    let turns = 0;
    let counting = true;
    const count = () => {
      turns++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const hash = await hashPassword('correct horse');
    const afterHash = turns;
    expect(await verifyPassword(hash, 'correct horse')).toBe(true);
    counting = false;
    // Inline, the ~100 ms of Argon2id would let only a turn or two pass for each call.
    expect(afterHash).toBeGreaterThan(20);
    expect(turns - afterHash).toBeGreaterThan(20);
  });

  it('reads the limits a hash was made with, without libsodium in this thread', () => {
    expect(passwordNeedsRehash('$argon2id$v=19$m=65536,t=2,p=1$c2FsdHNhbHRzYWx0c2E$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g')).toBe(false);
    expect(passwordNeedsRehash('$argon2id$v=19$m=65536,t=3,p=1$c2FsdHNhbHRzYWx0c2E$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g')).toBe(true);
    expect(passwordNeedsRehash('$argon2i$v=19$m=65536,t=2,p=1$c2FsdHNhbHRzYWx0c2E$aGFzaA')).toBe(true);
    expect(passwordNeedsRehash('$argon2id$v=19$m=65536,t=2,p=1$')).toBe(true);
  });

  it('works with the default (interactive) limits', async () => {
    const hash = await hashPassword('correct horse');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=65536,t=2,p=1\$/);
    expect(passwordNeedsRehash(hash)).toBe(false);
    expect(await verifyPassword(hash, 'correct horse')).toBe(true);
    const dummy = await dummyPasswordHash();
    expect(dummy).toMatch(/^\$argon2id\$v=19\$m=65536,t=2,p=1\$/);
    expect(await dummyPasswordHash()).toBe(dummy);
  }, 20_000);
});
