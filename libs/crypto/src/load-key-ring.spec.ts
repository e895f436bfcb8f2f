import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatKeyRing, generateKey, rotateKeyRing } from './key-ring';
import { devKeyRingPath, loadKeyRing, saveDevKeyRing } from './load-key-ring';
import { openText, seal } from './seal';
import { associatedData } from './associated-data';

let dir: string;
let warnings: string[];
const log = { warn: (message: string) => warnings.push(message) };
const ad = associatedData({ org: 'o1' });

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'meter-crypto-'));
  warnings = [];
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('loadKeyRing', () => {
  it('parses the environment value when set, without warning', async () => {
    const text = formatKeyRing([generateKey('k2'), generateKey('k1')]);
    const ring = await loadKeyRing({ name: 'CREDENTIAL_KEYRING', envValue: text, production: true, dataDir: dir, log });
    expect(ring.map((k) => k.id)).toEqual(['k2', 'k1']);
    expect(warnings).toEqual([]);
    // loadKeyRing initialised libsodium, so sealing works right away.
    expect(openText(ring, seal(ring, 'x', ad), ad)).toBe('x');
  });

  it('names the variable, not the key, when the value is bad', async () => {
    const short = Buffer.alloc(16, 9).toString('base64');
    const attempt = loadKeyRing({ name: 'VAULT_ROOT_KEYRING', envValue: `k1:${short}`, production: false, dataDir: dir, log });
    await expect(attempt).rejects.toThrow(/^VAULT_ROOT_KEYRING is invalid: entry 1 \(key id k1\): key must be exactly 32 bytes/);
    await expect(attempt).rejects.not.toThrow(short);
  });

  it('refuses to start in production without the variable', async () => {
    for (const envValue of [undefined, '', '  ']) {
      await expect(loadKeyRing({ name: 'CREDENTIAL_KEYRING', envValue, production: true, dataDir: dir, log })).rejects.toThrow(
        'CREDENTIAL_KEYRING is required in production',
      );
    }
    await expect(stat(join(dir, 'credential_keyring'))).rejects.toThrow();
  });

  it('creates a development ring once, private, and warns loudly each time', async () => {
    const dataDir = join(dir, 'nested', 'keys');
    const options = { name: 'VAULT_ROOT_KEYRING', envValue: undefined, production: false, dataDir, log };
    const first = await loadKeyRing(options);
    const path = join(dataDir, 'vault_root_keyring');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(first.map((k) => k.id)).toEqual(['k1']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/DEVELOPMENT KEY RING IN USE: VAULT_ROOT_KEYRING is not set/);
    expect(warnings[0]).toContain(path);
    expect(warnings[0]).not.toContain(Buffer.from(first[0]!.key).toString('base64'));

    const second = await loadKeyRing(options);
    expect(formatKeyRing(second)).toBe(formatKeyRing(first));
    expect(warnings).toHaveLength(2);
  });

  it('gives concurrent processes the same development ring', async () => {
    const options = { name: 'CREDENTIAL_KEYRING', envValue: undefined, production: false, dataDir: dir, log };
    const rings = await Promise.all(Array.from({ length: 8 }, () => loadKeyRing(options)));
    expect(new Set(rings.map(formatKeyRing)).size).toBe(1);
  });

  it('reports a corrupt development file by path', async () => {
    await writeFile(join(dir, 'credential_keyring'), 'k1:nonsense\n', { mode: 0o600 });
    await expect(loadKeyRing({ name: 'CREDENTIAL_KEYRING', envValue: undefined, production: false, dataDir: dir, log })).rejects.toThrow(
      /development key ring .*credential_keyring is invalid: entry 1 \(key id k1\)/,
    );
  });
});

describe('saveDevKeyRing', () => {
  it('writes a rotated ring back where loadKeyRing finds it', async () => {
    const options = { name: 'CREDENTIAL_KEYRING', envValue: undefined, production: false, dataDir: dir, log };
    const original = await loadKeyRing(options);
    const sealed = seal(original, 'secret', ad);

    const rotated = rotateKeyRing(original);
    const path = await saveDevKeyRing({ name: 'CREDENTIAL_KEYRING', dataDir: dir }, rotated);
    expect(path).toBe(devKeyRingPath({ name: 'CREDENTIAL_KEYRING', dataDir: dir }));
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await readFile(path, 'utf8')).trim()).toBe(formatKeyRing(rotated));

    const reloaded = await loadKeyRing(options);
    expect(reloaded.map((k) => k.id)).toEqual(['k2', 'k1']);
    expect(openText(reloaded, sealed, ad)).toBe('secret');
  });

  it('refuses a name that is not an environment variable name', () => {
    expect(() => devKeyRingPath({ name: '../etc/passwd', dataDir: dir })).toThrow(/environment variable name/);
  });

  it('defaults to .data/keys under the working directory', () => {
    expect(devKeyRingPath({ name: 'CREDENTIAL_KEYRING' })).toBe(join(process.cwd(), '.data', 'keys', 'credential_keyring'));
  });
});
