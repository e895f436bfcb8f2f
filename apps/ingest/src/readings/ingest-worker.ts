import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { ConsumerMessages, JetStreamClient, JsMsg } from '@nats-io/jetstream';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import type { BusNames } from '@meter/contracts';
import { BUS, JETSTREAM } from '@meter/messaging';
import { BatchProcessor } from './batch-processor';
import { readingsConsumer, readingsPullWindow } from './readings-consumer';
import { deviceOfSubject, takeBatch } from './take-batch';

/**
 * Pulls from the shared durable consumer into a queue and writes whatever
 * has arrived as one batch (whole devices, see takeBatch) while the previous
 * transaction commits: under load batches grow by themselves, at low rates
 * each message goes at once.
 */
@Injectable()
export class IngestWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('ingest');
  private readonly queue: JsMsg[] = [];
  private readonly waiting: (() => void)[] = [];
  /** Devices with a batch being written: another loop leaves their messages queued, so each device's stay in order. */
  private readonly busy = new Set<string>();
  private messages: ConsumerMessages | undefined;
  private running = false;
  private loops: Promise<void>[] = [];

  constructor(
    @Inject(JETSTREAM) private readonly js: JetStreamClient,
    @Inject(BUS) private readonly bus: BusNames,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(BatchProcessor) private readonly processor: BatchProcessor,
  ) {}

  async onApplicationBootstrap() {
    const spec = readingsConsumer(this.bus, this.config.INGEST_MAX_ACK_PENDING, this.config.INGEST_ACK_WAIT_SECONDS);
    const consumer = await this.js.consumers.get(spec.stream, spec.durable);
    this.running = true;
    this.messages = await consumer.consume({
      max_messages: readingsPullWindow(this.config.INGEST_BATCH_MESSAGES),
      callback: (msg) => {
        this.queue.push(msg);
        this.waiting.shift()?.();
      },
    });
    // Several transactions in flight keep Postgres busy while one batch travels; device locks keep them apart.
    this.loops = Array.from({ length: this.config.INGEST_CONCURRENCY }, () => this.run());
  }

  private async run() {
    while (this.running) {
      if (this.queue.length === 0) {
        await new Promise<void>((resolve) => this.waiting.push(resolve));
        continue;
      }
      // Whole devices per batch, so the concurrent batches do not queue on each other's device locks.
      const batch = takeBatch(this.queue, this.config.INGEST_BATCH_MESSAGES, (msg) => deviceOfSubject(msg.subject), this.busy);
      if (batch.length === 0) {
        // Everything queued belongs to devices another loop is writing: wait for it (or for new messages).
        await new Promise<void>((resolve) => this.waiting.push(resolve));
        continue;
      }
      const devices = new Set(batch.map((msg) => deviceOfSubject(msg.subject)));
      for (const device of devices) this.busy.add(device);
      try {
        await this.processor.process(batch);
      } catch (error) {
        // Not expected (the processor handles its errors); the batch comes back after ack_wait.
        this.logger.error(`batch failed: ${String(error)}`);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      } finally {
        for (const device of devices) this.busy.delete(device);
        if (this.queue.length > 0) this.waiting.shift()?.();
      }
    }
  }

  /** Finish the batch in hand; hand queued messages back at once rather than after ack_wait. */
  async beforeApplicationShutdown() {
    this.running = false;
    await this.messages?.close().catch(() => undefined);
    for (const wake of this.waiting.splice(0)) wake();
    await Promise.all(this.loops);
    for (const msg of this.queue.splice(0)) msg.nak();
  }
}
