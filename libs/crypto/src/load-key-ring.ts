import { randomBytes } from 'node:crypto';
import { access, chmod, link, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { devKeyId, formatKeyRing, generateKey, parseKeyRing, type KeyRing } from './key-ring';
import { sodiumReady } from './sodium';

export interface KeyRingLogger {
  warn(message: string): void;
}

export interface LoadKeyRingOptions {
  /** The environment variable, e.g. CREDENTIAL_KEYRING; also names the dev file. */
  readonly name: string;
  /** The variable's ring, as the configuration schema parsed it; undefined when unset. */
  readonly envValue: KeyRing | undefined;
  readonly production: boolean;
  /** Where development key rings live; default `.data/keys` under the working directory. */
  readonly dataDir?: string;
  readonly log: KeyRingLogger;
}

/** The key rings of the platform, named by their environment variables. */
export type KeyRingName = 'CREDENTIAL_KEYRING' | 'VAULT_ROOT_KEYRING' | 'WEBHOOK_SECRET_KEYRING';

/** The process settings a key ring is loaded from (a subset of the platform's configuration). */
export type KeyRingSettings = { NODE_ENV: string; DATA_DIR: string } & Partial<Record<KeyRingName, KeyRing>>;

/** loadKeyRing's options for a platform ring: the variable's value, production rules, dev file under DATA_DIR/keys. */
export function keyRingSource(name: KeyRingName, settings: KeyRingSettings, log: KeyRingLogger): LoadKeyRingOptions {
  return { name, envValue: settings[name], production: settings.NODE_ENV === 'production', dataDir: join(settings.DATA_DIR, 'keys'), log };
}

export interface DevKeyRingLocation {
  readonly name: string;
  readonly dataDir?: string;
}

const NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/**
 * The key ring from the environment (parsed by the configuration schema); outside production, without one, a
 * development ring generated once into `<dataDir>/<name in lower case>`
 * (mode 0600) with a loud warning. Also initialises libsodium, so the
 * synchronous seal/open can be used as soon as this resolves.
 */
export async function loadKeyRing(options: LoadKeyRingOptions): Promise<KeyRing> {
  const { name, envValue, production, log } = options;
  await sodiumReady();
  if (envValue !== undefined) return envValue;
  if (production) throw new Error(`${name} is required in production`);

  const path = devKeyRingPath(options);
  const created = await createDevKeyRingOnce(path);
  const ring = await readDevKeyRing(path);
  log.warn(
    `DEVELOPMENT KEY RING IN USE: ${name} is not set, so ${created ? 'a new' : 'the'} key ring in ${path} is used. ` +
      `Anything sealed with it is only as safe as that file. Set ${name} before handling real data; ` +
      `NODE_ENV=production refuses to start without it.`,
  );
  return ring;
}

/**
 * Writes a (rotated) ring back to the development file, atomically.
 * Development only: in production the operator updates the secret that
 * feeds the environment variable instead.
 */
export async function saveDevKeyRing(location: DevKeyRingLocation, ring: KeyRing): Promise<string> {
  const path = devKeyRingPath(location);
  const text = `${formatKeyRing(ring)}\n`;
  await mkdir(resolve(path, '..'), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, text, { mode: 0o600, flag: 'wx' });
  await rename(temporary, path);
  return path;
}

export function devKeyRingPath({ name, dataDir }: DevKeyRingLocation): string {
  if (!NAME.test(name)) throw new Error(`key ring name ${JSON.stringify(name)} must be an environment variable name`);
  return join(resolve(dataDir ?? '.data/keys'), name.toLowerCase());
}

/**
 * Several processes (auth and gateway share the credential ring) may
 * start at once: the ring is written to a private temporary file and
 * hard-linked into place, which fails if another process won, so every
 * process ends up with the same complete file.
 */
async function createDevKeyRingOnce(path: string): Promise<boolean> {
  if (await exists(path)) return false;
  await mkdir(resolve(path, '..'), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, `${formatKeyRing([generateKey(devKeyId())])}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(temporary, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(temporary);
  }
}

async function readDevKeyRing(path: string): Promise<KeyRing> {
  // Tighten a file someone copied in with looser permissions (best effort).
  await chmod(path, 0o600).catch(() => undefined);
  try {
    return parseKeyRing(await readFile(path, 'utf8'));
  } catch (error) {
    throw new Error(`development key ring ${path} is invalid: ${(error as Error).message}`);
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
