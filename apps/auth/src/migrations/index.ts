import { createSchemaMigration, type ServiceStore } from '@meter/persistence';
import { AuthTables1763700100000 } from './auth-tables.migration';

/** The auth service's tables live in the `auth` schema; migrations in order. */
export const authStore: ServiceStore = {
  schema: 'auth',
  migrations: [createSchemaMigration('auth'), AuthTables1763700100000],
  entities: [],
};
