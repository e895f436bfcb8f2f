import type { ServiceStore } from '@meter/persistence';
import { authStore } from '../apps/auth/src/migrations';
import { ingestStore } from '../apps/ingest/src/migrations';
import { vaultStore } from '../apps/vault/src/migrations';

/** Every service that owns a Postgres schema, in the order their migrations run. */
export const SERVICE_STORES: Record<string, ServiceStore> = {
  auth: authStore,
  vault: vaultStore,
  ingest: ingestStore,
};
