import { createSchemaMigration, type ServiceStore } from '@meter/persistence';

/** The ingest service's tables live in the `ingest` schema; migrations in order. */
export const ingestStore: ServiceStore = {
  schema: 'ingest',
  migrations: [createSchemaMigration('ingest')],
  entities: [],
};
