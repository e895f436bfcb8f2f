import { join } from 'node:path';
import { Command } from 'commander';
import { action } from '../usage';

export const keysRotateCredentialsCommand = () =>
  new Command('rotate-credentials')
    .description('re-seal every credential secret under the active CREDENTIAL_KEYRING key (development: add a new key first)')
    .option('--check', 'only open every secret with the ring and print how many each key id seals and how many do not open (exit 1 when some do not)')
    .addHelpText(
      'after',
      '\nWith CREDENTIAL_KEYRING set (production): put the new key FIRST in the ring on every auth and gateway\n' +
        'process beforehand (docs/keys.md, docs/management-api.md); this re-seals what is under older keys.\n' +
        'Without it (development): adds a new active key to the development key-ring file, then re-seals.',
    )
    .action(
      action(async (options: { check?: boolean }) => {
        const check = Boolean(options.check);
        const [
          { loadConfig },
          { rotateKeyRing, saveDevKeyRing },
          { authDataSource, checkCredentialSecrets, loadCredentialRing, resealCredentials, sealedSecretsSummary },
        ] = await Promise.all([import('@meter/config'), import('@meter/crypto'), import('@meter/auth')]);
        const config = loadConfig();
        const log = { warn: (message: string) => process.stderr.write(`${message}\n`) };
        let ring = await loadCredentialRing(config, log);
        const dataSource = await authDataSource(config);
        try {
          if (check) {
            const checked = await checkCredentialSecrets(dataSource, ring);
            process.stdout.write(`${JSON.stringify(sealedSecretsSummary(checked))}\n`);
            if (checked.unreadable > 0) throw new Error(`${checked.unreadable} secrets do not open with this key ring (unreadable_by_key)`);
            return;
          }
          const fromEnv = Boolean(config.CREDENTIAL_KEYRING);
          if (!fromEnv) {
            ring = rotateKeyRing(ring);
            const path = await saveDevKeyRing({ name: 'CREDENTIAL_KEYRING', dataDir: join(config.DATA_DIR, 'keys') }, ring);
            log.warn(`development key ring ${path} now starts with new key ${ring[0].id}; restart running processes so they load it`);
          }
          const report = await resealCredentials(dataSource, ring);
          process.stdout.write(
            `${JSON.stringify({ mode: fromEnv ? 'environment' : 'development', resealed: report.resealed, ...sealedSecretsSummary(report) })}\n`,
          );
          if (report.unreadable > 0) throw new Error(`${report.unreadable} secrets do not open with this key ring (unreadable_by_key)`);
        } finally {
          await dataSource.destroy();
        }
      }),
    );
