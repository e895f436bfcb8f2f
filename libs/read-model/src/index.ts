/**
 * The consumption read model's queries (docs/read-model.md): what the
 * gateway, the integrations and the CLI read of the `ingest` schema, and the
 * record types they answer. Read-only: everything that writes the schema
 * (its migrations, the batch writer, the change log, the alert episodes,
 * the rebuild) belongs to the ingest service (`@meter/ingest`).
 */
export * from './records';
export * from './devices/device-reader';
export * from './devices/devices-changed';
export * from './devices/device-by-radio-id';
export * from './devices/fleet-page';
export * from './readings/reading-reader';
export * from './readings/day-pack';
export * from './device-history';
export * from './export-day';
export * from './alerts';
export * from './change-log/reading-changes-after';
export * from './readings/reading-day';
