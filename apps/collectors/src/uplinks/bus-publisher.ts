import { Inject, Injectable } from '@nestjs/common';
import type { JetStreamClient } from '@nats-io/jetstream';
import { headers as natsHeaders } from '@nats-io/nats-core';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import type { BusNames } from '@meter/contracts';
import { BUS, JETSTREAM } from '@meter/messaging';
import { CollectorMetrics } from './collector-metrics';
import { messageId } from './message-id';

/** JetStream did not acknowledge in time (or refused): nothing may be acknowledged to the collector. */
export class JetStreamUnavailable extends Error {}

const encoder = new TextEncoder();

/** Publishes to JetStream and resolves only once it has stored the message (its PubAck). */
@Injectable()
export class BusPublisher {
  constructor(
    @Inject(JETSTREAM) private readonly js: JetStreamClient,
    @Inject(BUS) private readonly bus: BusNames,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CollectorMetrics) private readonly metrics: CollectorMetrics,
  ) {}

  /** `subject` without the bus prefix; `data` JSON-encoded unless already bytes. */
  async publish(subject: string, data: unknown, headers: Record<string, string> = {}, id?: string): Promise<void> {
    const bytes = data instanceof Uint8Array ? data : encoder.encode(JSON.stringify(data));
    const h = natsHeaders();
    for (const [name, value] of Object.entries(headers)) h.set(name, value.replace(/[\r\n]+/g, ' ').slice(0, 1000));
    try {
      await this.js.publish(this.bus.subject(subject), bytes, {
        msgID: id ?? messageId(subject, bytes),
        timeout: this.config.COLLECTORS_PUBLISH_TIMEOUT_MS,
        ...(Object.keys(headers).length ? { headers: h } : {}),
      });
    } catch (error) {
      this.metrics.publishFailures.inc();
      throw new JetStreamUnavailable(error instanceof Error ? error.message : String(error));
    }
  }
}
