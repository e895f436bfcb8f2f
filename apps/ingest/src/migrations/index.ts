import { createSchemaMigration, type ServiceStore } from '@meter/persistence';
import { DevicesChangedNotify1763800000002 } from './devices-changed-notify.migration';
import { NoJit1763800000001 } from './no-jit.migration';
import { ReadModel1763800000000 } from './read-model.migration';

/** The ingest service's tables live in the `ingest` schema; migrations in order. */
export const ingestStore: ServiceStore = {
  schema: 'ingest',
  migrations: [createSchemaMigration('ingest'), ReadModel1763800000000, NoJit1763800000001, DevicesChangedNotify1763800000002],
  entities: [],
};
