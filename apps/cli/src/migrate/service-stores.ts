import type { ServiceStore } from '@meter/persistence';
import { authStore } from '@meter/auth';
import { collectorsStore } from '@meter/collectors';
import { ingestStore } from '@meter/ingest';
import { integrationsStore } from '@meter/integrations';
import { vaultStore } from '@meter/vault';

/** Every Postgres schema of the platform and its owner's migrations, in the order they run. */
export const SERVICE_STORES: Record<string, ServiceStore> = {
  auth: authStore,
  vault: vaultStore,
  ingest: ingestStore,
  integrations: integrationsStore,
  collectors: collectorsStore,
};
