import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatKeyRing, generateKey, parseKeyRing, rotateKeyRing } from './key-ring';
import { devKeyRingPath, loadKeyRing, saveDevKeyRing } from './load-key-ring';
import { openText, seal, SealedDataError } from './seal';
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
  it('uses the ring from the environment when set, without warning', async () => {
    const envValue = parseKeyRing(formatKeyRing([generateKey('k2'), generateKey('k1')]));
    const ring = await loadKeyRing({ name: 'CREDENTIAL_KEYRING', envValue, production: true, dataDir: dir, log });
    expect(ring.map((k) => k.id)).toEqual(['k2', 'k1']);
    expect(warnings).toEqual([]);
    // loadKeyRing initialised libsodium, so sealing works right away.
    expect(openText(ring, seal(ring, 'x', ad), ad)).toBe('x');
  });

  it('refuses to start in production without the variable', async () => {
    await expect(loadKeyRing({ name: 'CREDENTIAL_KEYRING', envValue: undefined, production: true, dataDir: dir, log })).rejects.toThrow(
      'CREDENTIAL_KEYRING is required in production',
    );
    await expect(stat(join(dir, 'credential_keyring'))).rejects.toThrow();
  });

  it('creates a development ring once, private, and warns loudly each time', async () => {
    const dataDir = join(dir, 'nested', 'keys');
    const options = { name: 'VAULT_ROOT_KEYRING', envValue: undefined, production: false, dataDir, log };
    const first = await loadKeyRing(options);
    const path = join(dataDir, 'vault_root_keyring');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(first.map((k) => k.id)).toEqual([expect.stringMatching(/^dev-\d{8}-[0-9a-f]{8}$/)]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/DEVELOPMENT KEY RING IN USE: VAULT_ROOT_KEYRING is not set/);
    expect(warnings[0]).toContain(path);
    expect(warnings[0]).not.toContain(Buffer.from(first[0]!.key).toString('base64'));

    const second = await loadKeyRing(options);
    expect(formatKeyRing(second)).toBe(formatKeyRing(first));
    expect(warnings).toHaveLength(2);
  });

  it("gives two checkouts development rings with different key ids, so one's sealed values name a key the other lacks", async () => {
    const load = (checkout: string) => loadKeyRing({ name: 'CREDENTIAL_KEYRING', envValue: undefined, production: false, dataDir: join(dir, checkout), log });
    const [mine, theirs] = [await load('a'), await load('b')];
    expect(mine[0]!.id).not.toBe(theirs[0]!.id);
    let thrown: unknown;
    try {
      openText(mine, seal(theirs, 'secret', ad), ad);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SealedDataError);
    expect((thrown as SealedDataError).problem).toBe('unknown-key');
  });

  it('keeps using an existing development ring whose key is k1', async () => {
    const existing = formatKeyRing([generateKey('k1')]);
    await writeFile(join(dir, 'credential_keyring'), `${existing}\n`, { mode: 0o600 });
    const ring = await loadKeyRing({ name: 'CREDENTIAL_KEYRING', envValue: undefined, production: false, dataDir: dir, log });
    expect(formatKeyRing(ring)).toBe(existing);
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
    expect(reloaded.map((k) => k.id)).toEqual(rotated.map((k) => k.id));
    expect(reloaded).toHaveLength(2);
    expect(openText(reloaded, sealed, ad)).toBe('secret');
  });

  it('refuses a name that is not an environment variable name', () => {
    expect(() => devKeyRingPath({ name: '../etc/passwd', dataDir: dir })).toThrow(/environment variable name/);
  });

  it('defaults to .data/keys under the working directory', () => {
    expect(devKeyRingPath({ name: 'CREDENTIAL_KEYRING' })).toBe(join(process.cwd(), '.data', 'keys', 'credential_keyring'));
  });
});
