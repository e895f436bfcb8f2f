import { createSchemaMigration, type ServiceStore } from '@meter/persistence';

/** The auth service's tables live in the `auth` schema; migrations in order. */
export const authStore: ServiceStore = {
  schema: 'auth',
  migrations: [createSchemaMigration('auth')],
  entities: [],
};
