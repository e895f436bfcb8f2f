import { createSchemaMigration, type ServiceStore } from '@meter/persistence';

/** The vault service's tables live in the `vault` schema; migrations in order. */
export const vaultStore: ServiceStore = {
  schema: 'vault',
  migrations: [createSchemaMigration('vault')],
  entities: [],
};
