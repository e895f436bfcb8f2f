/**
 * The ingest service's public face: what the CLI, the benchmarks and the
 * tests may use. Everything else under apps/ingest/src is private to it.
 * Ingest is the one writer of the `ingest` schema; others read it through
 * `@meter/read-model`.
 */
export { IngestModule } from './ingest.module';
export { ingestStore } from './migrations';
export { readingsConsumer, readingsPullWindow } from './readings/readings-consumer';
export { routeMessage, type IncomingMessage, type RoutedMessage } from './readings/route-message';
export { deviceOfSubject, takeBatch } from './readings/take-batch';
export type { AlarmUpdate, DeviceUpdate } from './readings/updates';
export type { ReadingRow } from './reading-store/reading-batch';
export { ensurePartitions } from './reading-store/reading-store';
export { writeBatch } from './readings/write-batch';
export { devicesToRebuild, rebuildDevice } from './rebuild/rebuild';
export { DEFAULT_ALERT_SETTINGS, emptyChannelState, evaluateReadings } from './alerts/rules';
