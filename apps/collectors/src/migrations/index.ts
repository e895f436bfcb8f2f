import { createSchemaMigration, type ServiceStore } from '@meter/persistence';
import { UnmatchedUplinks1764400000000 } from './unmatched-uplinks.migration';

/** The collectors' own table (unmatched uplinks) lives in the `collectors` schema; migrations in order. */
export const collectorsStore: ServiceStore = {
  schema: 'collectors',
  migrations: [createSchemaMigration('collectors'), UnmatchedUplinks1764400000000],
  entities: [],
};
