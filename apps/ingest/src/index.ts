/**
 * The ingest service's public face: what the CLI, the benchmarks and the
 * tests may use. Everything else under apps/ingest/src is private to it.
 */
export { IngestModule } from './ingest.module';
export { readingsConsumer, readingsPullWindow } from './readings/readings-consumer';
export { routeMessage, type IncomingMessage, type RoutedMessage } from './readings/route-message';
export { deviceOfSubject, takeBatch } from './readings/take-batch';
