/**
 * The consumption read model (docs/read-model.md), in one place: the `ingest`
 * schema's migrations, the record types, the batch writer, the reader's SQL,
 * the rebuild and the NOTIFY channel of device changes. Ingest writes through
 * it, the gateway reads through it, the CLI rebuilds and migrates with it.
 */
export * from './records';
export * from './migrations';
export * from './reading-batch';
export * from './read-model-writer';
export * from './read-model-reader';
export * from './device-history';
export * from './rebuild';
export * from './devices-changed';
export * from './reading-changes';
export * from './export-day';
export * from './alerts';
