import { MAX_READINGS_PER_MESSAGE } from '@meter/contracts';
import type { BusReading } from '../decoders/device-unit';

interface Pending {
  readings: BusReading[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

interface Queue {
  waiting: Pending[];
  busy: boolean;
}

/**
 * Group commit of one device's readings: while a publish to a subject awaits
 * JetStream, readings for the same subject wait, and go together as one
 * array message (up to MAX_READINGS_PER_MESSAGE) when it is acknowledged;
 * each caller resolves once the message holding its readings is stored. An
 * idle subject publishes at once, so this adds no wait, and a busy one pays
 * one JetStream round trip per batch instead of one per uplink.
 */
export class ReadingCoalescer {
  private readonly queues = new Map<string, Queue>();

  constructor(private readonly publish: (subject: string, payload: BusReading | BusReading[]) => Promise<void>) {}

  add(subject: string, readings: BusReading[]): Promise<void> {
    return new Promise((resolve, reject) => {
      let queue = this.queues.get(subject);
      if (!queue) this.queues.set(subject, (queue = { waiting: [], busy: false }));
      queue.waiting.push({ readings, resolve, reject });
      if (!queue.busy) void this.drain(subject, queue);
    });
  }

  private async drain(subject: string, queue: Queue) {
    queue.busy = true;
    while (queue.waiting.length > 0) {
      const batch: Pending[] = [];
      let count = 0;
      while (queue.waiting.length > 0 && (batch.length === 0 || count + queue.waiting[0].readings.length <= MAX_READINGS_PER_MESSAGE)) {
        const next = queue.waiting.shift()!;
        batch.push(next);
        count += next.readings.length;
      }
      const readings = batch.flatMap((p) => p.readings);
      try {
        await this.publish(subject, readings.length === 1 ? readings[0] : readings);
        for (const p of batch) p.resolve();
      } catch (error) {
        for (const p of batch) p.reject(error);
      }
    }
    queue.busy = false;
    this.queues.delete(subject);
  }
}
