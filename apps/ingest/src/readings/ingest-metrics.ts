import { Inject, Injectable } from '@nestjs/common';
import { Counter, Histogram } from 'prom-client';
import { Metrics } from '@meter/http';

@Injectable()
export class IngestMetrics {
  readonly readings: Counter;
  readonly deadLetters: Counter<'kind' | 'reason'>;
  /** Partitions and transaction of one batch, until commit. */
  readonly batchSeconds: Histogram;
  readonly batchMessages: Histogram;
  /** From JetStream storing a message to the commit of its batch: how fresh the read model is. */
  readonly storedToCommitSeconds: Histogram;
  /** Batches handed back to JetStream (nak with backoff) on a transient database error. */
  readonly batchRetries: Counter;

  constructor(@Inject(Metrics) metrics: Metrics) {
    const registers = [metrics.registry];
    this.readings = new Counter({ name: 'meter_ingest_readings_total', help: 'Readings written (committed) to the read model', registers });
    this.deadLetters = new Counter({
      name: 'meter_ingest_dead_letters_total',
      help: 'Messages sent to the dead-letter subject, by kind (subject) and reason: invalid_subject, not_json, invalid_message, future_timestamp, rejected_by_database',
      labelNames: ['kind', 'reason'],
      registers,
    });
    this.batchSeconds = new Histogram({
      name: 'meter_ingest_batch_duration_seconds',
      help: 'Time to write one committed batch (partitions, transaction, commit)',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    this.batchMessages = new Histogram({
      name: 'meter_ingest_batch_messages',
      help: 'Messages per committed batch',
      buckets: [1, 5, 10, 25, 50, 100, 200, 400, 800],
      registers,
    });
    this.storedToCommitSeconds = new Histogram({
      name: 'meter_ingest_stored_to_commit_seconds',
      help: 'Per message, from JetStream storing it to the commit of its batch (read model freshness)',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    });
    this.batchRetries = new Counter({
      name: 'meter_ingest_batch_retries_total',
      help: 'Batches handed back to JetStream with backoff after a transient database error',
      registers,
    });
  }
}
