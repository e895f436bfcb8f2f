import { Module } from '@nestjs/common';
import { AlertsModule } from '../alerts/alerts.module';
import { BatchProcessor } from './batch-processor';
import { DeadLetters } from './dead-letters';
import { IngestMetrics } from './ingest-metrics';
import { IngestWorker } from './ingest-worker';

/** Readings and device messages from JetStream into the read model. */
@Module({ imports: [AlertsModule], providers: [DeadLetters, IngestMetrics, BatchProcessor, IngestWorker] })
export class ReadingsModule {}
