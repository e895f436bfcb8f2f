import { loadConfigOrExit } from '@meter/config';
import { loadKeyRing, removeKey, rotateKeyRing, saveDevKeyRing, type KeyRing } from '@meter/crypto';
import { createDataSource } from '@meter/persistence';
import { rewrapDataKeys } from '../../../vault/src/keys/rewrap-data-keys';
import { rootKeyRingSource } from '../../../vault/src/keys/root-key-ring';
import { vaultStore } from '../../../vault/src/migrations';
import { parseFlags, UsageError, type Command } from '../command';

/**
 * Rotates the vault root key ring (docs/vault.md): re-wraps every data key
 * under the active root key; entries are not touched. With the ring in the
 * development file it also makes the new key (unless --rewrap-only) and
 * can drop the keys nothing names any more (--remove-old). With
 * VAULT_ROOT_KEYRING set, the operator puts the new key first in the
 * secret and removes old ones; the command re-wraps and says which are unused.
 */
export const keysRotateVaultCommand: Command = {
  name: 'keys rotate-vault',
  summary: 'rotate the vault root key: new active key (dev file), re-wrap every data key, report or remove unused keys',
  usage: '[--rewrap-only] [--remove-old]',
  async run(args) {
    const flags = flagsOf(args);
    const config = loadConfigOrExit();
    const fromEnv = Boolean(config.VAULT_ROOT_KEYRING);
    if (fromEnv && flags['remove-old']) {
      throw new UsageError('--remove-old edits the development key file; with VAULT_ROOT_KEYRING set, remove the reported keys from the secret instead');
    }
    const source = rootKeyRingSource(config, { warn: (message) => process.stderr.write(`${message}\n`) });
    let ring: KeyRing = await loadKeyRing(source);
    if (!fromEnv && !flags['rewrap-only']) {
      ring = rotateKeyRing(ring);
      // Saved before re-wrapping, so the vault can open what is re-wrapped under the new key.
      await saveDevKeyRing(source, ring);
    }
    const dataSource = await createDataSource({ ...vaultStore, url: config.DATABASE_URL, poolSize: 2, applicationName: 'cli-keys-rotate-vault' }).initialize();
    try {
      const report = await rewrapDataKeys(dataSource, ring, 'cli:keys rotate-vault');
      let removed: string[] = [];
      if (flags['remove-old'] && report.unusedKeyIds.length > 0) {
        for (const id of report.unusedKeyIds) ring = removeKey(ring, id);
        await saveDevKeyRing(source, ring);
        removed = report.unusedKeyIds;
      }
      process.stdout.write(
        `${JSON.stringify({
          key_ring: fromEnv ? 'VAULT_ROOT_KEYRING' : 'development file',
          active_key_id: report.activeKeyId,
          rewrapped: report.rewrapped,
          unchanged: report.unchanged,
          unused_key_ids: report.unusedKeyIds.filter((id) => !removed.includes(id)),
          removed_key_ids: removed,
        })}\n`,
      );
    } finally {
      await dataSource.destroy();
    }
  },
};

function flagsOf(args: string[]) {
  return parseFlags({
    args,
    options: { 'rewrap-only': { type: 'boolean' }, 'remove-old': { type: 'boolean' } },
    strict: true,
    allowPositionals: false,
  }).values;
}
