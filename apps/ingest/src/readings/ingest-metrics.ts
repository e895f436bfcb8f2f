import { Inject, Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { Metrics } from '@meter/http';

@Injectable()
export class IngestMetrics {
  readonly readings: Counter;
  readonly deadLetters: Counter<'kind'>;

  constructor(@Inject(Metrics) metrics: Metrics) {
    this.readings = new Counter({ name: 'ingest_readings_total', help: 'Readings written (committed) to the read model', registers: [metrics.registry] });
    this.deadLetters = new Counter({
      name: 'ingest_dead_letters_total',
      help: 'Messages sent to the dead-letter subject, by kind',
      labelNames: ['kind'],
      registers: [metrics.registry],
    });
  }
}
