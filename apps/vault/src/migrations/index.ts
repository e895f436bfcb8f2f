import { createSchemaMigration, type ServiceStore } from '@meter/persistence';
import { VaultTables1763800000000 } from './1763800000000-vault-tables';

/** The vault service's tables live in the `vault` schema; migrations in order. */
export const vaultStore: ServiceStore = {
  schema: 'vault',
  migrations: [createSchemaMigration('vault'), VaultTables1763800000000],
  entities: [],
};
