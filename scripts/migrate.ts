import { loadConfigOrExit } from '@meter/config';
import { migrateAll } from './migrate-all';

/** `npm run migrate`: what the Kubernetes migration Job runs. */
async function main() {
  const config = loadConfigOrExit();
  await migrateAll(config.DATABASE_URL, (line) => console.log(`migrate: ${line}`));
}

main().catch((error: unknown) => {
  console.error(`migrate: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
