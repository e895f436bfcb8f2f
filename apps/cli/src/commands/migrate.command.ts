import { Command } from 'commander';
import { action } from '../usage';

/** What `npm start`, `npm run migrate`, the Kubernetes Job and compose's `migrate` service run. */
export const migrateCommand = () =>
  new Command('migrate').description('create the database if absent and apply pending migrations (progress on stderr)').action(
    action(async () => {
      const [{ loadConfig }, { migrateAll }] = await Promise.all([import('@meter/config'), import('../migrate/migrate-all')]);
      const config = loadConfig();
      await migrateAll(config.DATABASE_URL, (line) => process.stderr.write(`migrate ${line}\n`));
    }),
  );
