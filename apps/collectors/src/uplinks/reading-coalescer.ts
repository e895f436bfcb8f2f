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
 * Group commit of one device's readings: readings for a subject that arrive
 * in the same turn of the event loop (aedes hands over every PUBLISH of a
 * socket read in one go), or while a publish to that subject awaits
 * JetStream, go together as one array message (up to
 * MAX_READINGS_PER_MESSAGE); each caller resolves once the message holding
 * its readings is stored. An idle subject waits one turn (setImmediate), not
 * a timer, and a busy one pays one JetStream round trip per batch instead of
 * one per uplink. The subjects that became ready in a turn (or whose
 * previous message was acknowledged) all publish from one immediate, so
 * nats.js sends their messages in one socket write (docs/benchmarks.md,
 * "Collectors").
 */
export class ReadingCoalescer {
  private readonly queues = new Map<string, Queue>();
  private ready: [string, Queue][] = [];

  constructor(private readonly publish: (subject: string, payload: BusReading | BusReading[]) => Promise<void>) {}

  add(subject: string, readings: BusReading[]): Promise<void> {
    return new Promise((resolve, reject) => {
      let queue = this.queues.get(subject);
      if (!queue) this.queues.set(subject, (queue = { waiting: [], busy: false }));
      queue.waiting.push({ readings, resolve, reject });
      if (!queue.busy) {
        queue.busy = true;
        this.schedule(subject, queue);
      }
    });
  }

  /** The subject publishes its waiting readings in the next immediate, with every other subject ready by then. */
  private schedule(subject: string, queue: Queue) {
    if (this.ready.push([subject, queue]) === 1) setImmediate(() => this.start());
  }

  private start() {
    const ready = this.ready;
    this.ready = [];
    for (const [subject, queue] of ready) void this.publishBatch(subject, queue);
  }

  private async publishBatch(subject: string, queue: Queue) {
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
    // What arrived while JetStream was asked goes next, in one message.
    if (queue.waiting.length > 0) this.schedule(subject, queue);
    else {
      queue.busy = false;
      this.queues.delete(subject);
    }
  }
}
