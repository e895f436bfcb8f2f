import { Command } from 'commander';
import type { KeyRing } from '@meter/crypto';
import { action, UsageError } from '../usage';

/**
 * Rotates the vault root key ring (docs/vault.md): re-wraps every data key
 * under the active root key; entries are not touched. With the ring in the
 * development file it also makes the new key (unless --rewrap-only) and
 * can drop the keys nothing names any more (--remove-old). With
 * VAULT_ROOT_KEYRING set, the operator puts the new key first in the
 * secret and removes old ones; the command re-wraps and says which are unused.
 */
export const keysRotateVaultCommand = () =>
  new Command('rotate-vault')
    .description('rotate the vault root key: new active key (dev file), re-wrap every data key, report or remove unused keys')
    .option('--rewrap-only', 'only re-wrap the data keys under the active root key (no new key)')
    .option('--remove-old', 'remove the root keys nothing is wrapped under any more from the development key file')
    .action(
      action(async (options: { rewrapOnly?: boolean; removeOld?: boolean }) => {
        const [
          { loadConfig },
          { loadKeyRing, removeKey, rotateKeyRing, saveDevKeyRing },
          { createDataSource },
          { rewrapDataKeys, rootKeyRingSource, vaultStore },
        ] = await Promise.all([import('@meter/config'), import('@meter/crypto'), import('@meter/persistence'), import('@meter/vault')]);
        const config = loadConfig();
        const fromEnv = Boolean(config.VAULT_ROOT_KEYRING);
        if (fromEnv && options.removeOld) {
          throw new UsageError('--remove-old edits the development key file; with VAULT_ROOT_KEYRING set, remove the reported keys from the secret instead');
        }
        const source = rootKeyRingSource(config, { warn: (message) => process.stderr.write(`${message}\n`) });
        let ring: KeyRing = await loadKeyRing(source);
        if (!fromEnv && !options.rewrapOnly) {
          ring = rotateKeyRing(ring);
          // Saved before re-wrapping, so the vault can open what is re-wrapped under the new key.
          await saveDevKeyRing(source, ring);
        }
        const dataSource = await createDataSource({
          ...vaultStore,
          url: config.DATABASE_URL,
          poolSize: 2,
          applicationName: 'cli-keys-rotate-vault',
        }).initialize();
        try {
          const report = await rewrapDataKeys(dataSource, ring, 'cli:keys rotate-vault');
          let removed: string[] = [];
          if (options.removeOld && report.unusedKeyIds.length > 0) {
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
              unreadable: report.unreadable,
              unreadable_by_key: report.unreadableByKey,
            })}\n`,
          );
          if (report.unreadable > 0) throw new Error(`${report.unreadable} data keys do not open with this key ring (unreadable_by_key)`);
        } finally {
          await dataSource.destroy();
        }
      }),
    );
