import { join } from 'node:path';
import { loadConfigOrExit } from '@meter/config';
import { rotateKeyRing, saveDevKeyRing } from '@meter/crypto';
import { authDataSource } from '../../../auth/src/auth-data-source';
import { loadCredentialRing } from '../../../auth/src/credentials/credential-keyring';
import { resealCredentials, sealedByKey } from '../../../auth/src/credentials/reseal-credentials';
import { parseFlags, type Command } from '../command';

export const keysRotateCredentialsCommand: Command = {
  name: 'keys rotate-credentials',
  summary: 're-seal every credential secret under the active CREDENTIAL_KEYRING key (development: add a new key first)',
  usage:
    '[--check]\n\n' +
    'With CREDENTIAL_KEYRING set (production): put the new key FIRST in the ring on every auth and gateway\n' +
    'process beforehand (docs/keys.md, docs/management-api.md); this re-seals what is under older keys.\n' +
    'Without it (development): adds a new active key to the development key-ring file, then re-seals.\n' +
    '--check only prints how many secrets each key id seals.',
  async run(args) {
    const check = Boolean(parseFlags({ args, options: { check: { type: 'boolean' } }, strict: true, allowPositionals: false }).values.check);
    const config = loadConfigOrExit();
    const log = { warn: (message: string) => process.stderr.write(`${message}\n`) };
    let ring = await loadCredentialRing(config, log);
    const dataSource = await authDataSource(config);
    try {
      if (check) {
        process.stdout.write(`${JSON.stringify({ active_key: ring[0].id, sealed_by_key: await sealedByKey(dataSource) })}\n`);
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
        `${JSON.stringify({ mode: fromEnv ? 'environment' : 'development', active_key: report.activeKey, resealed: report.resealed, sealed_by_key: report.sealedByKey })}\n`,
      );
    } finally {
      await dataSource.destroy();
    }
  },
};
