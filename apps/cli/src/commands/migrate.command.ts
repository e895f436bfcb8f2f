import { loadConfigOrExit } from '@meter/config';
import { migrateAll } from '../../../../scripts/migrate-all';
import type { Command } from '../command';

export const migrateCommand: Command = {
  name: 'migrate',
  summary: 'create the database if absent and apply pending migrations',
  async run() {
    const config = loadConfigOrExit();
    await migrateAll(config.DATABASE_URL, (line) => console.error(line));
  },
};
