import { createSchemaMigration, type ServiceStore } from '@meter/persistence';
import { NoJit1763800000001 } from './no-jit.migration';
import { ReadModel1763800000000 } from './read-model.migration';

/** The ingest service's tables live in the `ingest` schema; migrations in order. */
export const ingestStore: ServiceStore = {
  schema: 'ingest',
  migrations: [createSchemaMigration('ingest'), ReadModel1763800000000, NoJit1763800000001],
  entities: [],
};
