import { createSchemaMigration, type ServiceStore } from '@meter/persistence';
import { ReadModel1763800000000 } from './read-model.migration';

/** The ingest service's tables live in the `ingest` schema; migrations in order. */
export const ingestStore: ServiceStore = {
  schema: 'ingest',
  migrations: [createSchemaMigration('ingest'), ReadModel1763800000000],
  entities: [],
};
