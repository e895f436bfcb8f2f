import { Logger } from '@nestjs/common';
import type { AppConfig } from '@meter/config';
import { keyRingSource, loadKeyRing, type KeyRing } from '@meter/crypto';

const ROOT_KEY_RING_NAME = 'VAULT_ROOT_KEYRING';

/** Where the root ring comes from: the environment, or outside production the development file. */
export function rootKeyRingSource(config: AppConfig, log: { warn(message: string): void }) {
  return keyRingSource(ROOT_KEY_RING_NAME, config, log);
}

/**
 * The root key ring, held by the vault process only. A development ring is
 * re-read when a wrap names a key this process does not know yet, so
 * `cli keys rotate-vault` takes effect without a restart; a ring from the
 * environment changes only with a new deployment.
 */
export class RootKeyRing {
  private readonly logger = new Logger('vault-keys');

  private constructor(
    private readonly config: AppConfig,
    private ring: KeyRing,
  ) {}

  static async load(config: AppConfig): Promise<RootKeyRing> {
    const logger = new Logger('vault-keys');
    return new RootKeyRing(config, await loadKeyRing(rootKeyRingSource(config, { warn: (m) => logger.warn(m) })));
  }

  current(): KeyRing {
    return this.ring;
  }

  /** True when the ring changed. */
  async refresh(): Promise<boolean> {
    if (this.config.VAULT_ROOT_KEYRING) return false;
    const before = this.ring.map((k) => k.id).join(',');
    this.ring = await loadKeyRing(rootKeyRingSource(this.config, { warn: () => undefined }));
    const changed = this.ring.map((k) => k.id).join(',') !== before;
    if (changed) this.logger.log(`root key ring reloaded; active key ${this.ring[0]?.id}`);
    return changed;
  }
}
