import { Inject, Injectable } from '@nestjs/common';
import type { JetStreamClient } from '@nats-io/jetstream';
import { headers } from '@nats-io/nats-core';
import { DEAD_LETTER_HEADERS, platformStreams, type BusNames } from '@meter/contracts';
import { BUS, JETSTREAM } from '@meter/messaging';

export interface DeadLetter {
  /** `readings`, `devices` or `unknown`: the last token of the dead-letter subject */
  kind: string;
  reason: string;
  originalSubject: string;
  seq: number;
  data: Uint8Array;
}

/**
 * Publishes the original payload to `meter.deadletter.<kind>` with the
 * reason in headers. The message id is the original stream sequence, so a
 * redelivery after a crash is dropped by JetStream as a duplicate.
 */
@Injectable()
export class DeadLetters {
  constructor(
    @Inject(JETSTREAM) private readonly js: JetStreamClient,
    @Inject(BUS) private readonly bus: BusNames,
  ) {}

  /** Resolves false when JetStream already held this dead letter (a redelivered original). */
  async publish(letter: DeadLetter): Promise<boolean> {
    const h = headers();
    h.set(DEAD_LETTER_HEADERS.reason, letter.reason.replace(/[\r\n]+/g, ' ').slice(0, 1000));
    h.set(DEAD_LETTER_HEADERS.subject, letter.originalSubject);
    h.set(DEAD_LETTER_HEADERS.stream, platformStreams(this.bus).readings.name);
    h.set(DEAD_LETTER_HEADERS.sequence, String(letter.seq));
    const ack = await this.js.publish(this.bus.subject(`meter.deadletter.${letter.kind}`), letter.data, {
      headers: h,
      msgID: `${platformStreams(this.bus).readings.name}:${letter.seq}`,
    });
    return !ack.duplicate;
  }
}
