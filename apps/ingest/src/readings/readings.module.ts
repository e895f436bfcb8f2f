import { Module } from '@nestjs/common';
import { BatchProcessor } from './batch-processor';
import { DeadLetters } from './dead-letters';
import { IngestMetrics } from './ingest-metrics';
import { IngestWorker } from './ingest-worker';

/** Readings and device messages from JetStream into the read model. */
@Module({ providers: [DeadLetters, IngestMetrics, BatchProcessor, IngestWorker] })
export class ReadingsModule {}
