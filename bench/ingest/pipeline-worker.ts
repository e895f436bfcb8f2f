import { jetstream, type JsMsg } from '@nats-io/jetstream';
import { BusNames } from '@meter/contracts';
import { connectNats } from '@meter/messaging';
import { readingsConsumer, readingsPullWindow, routeMessage, deviceOfSubject, takeBatch } from '@meter/ingest';

/**
 * bench:ingest part 2b, a process of its own: the ingest's own steps before
 * the database (pull from the durable consumer, whole-device batches, parse
 * and validate every message with `routeMessage`) and its acknowledgements,
 * with no database at all. What this process, the bus and the publisher cost
 * per reading is paid by any write design before Postgres does anything.
 * Input: one JSON argument; says 'ready' over IPC once it consumes.
 */
export interface PipelineWorkerInput {
  natsUrl: string;
  busPrefix: string;
  batchMessages: number;
  maxAckPending: number;
}

async function main() {
  const input = JSON.parse(process.argv[2] ?? '') as PipelineWorkerInput;
  const bus = new BusNames(input.busPrefix);
  const nc = await connectNats(input.natsUrl, 'bench-pipeline');
  const spec = readingsConsumer(bus, input.maxAckPending);
  const consumer = await jetstream(nc).consumers.get(spec.stream, spec.durable);
  const queue: JsMsg[] = [];
  let wake: (() => void) | undefined;
  await consumer.consume({
    max_messages: readingsPullWindow(input.batchMessages),
    callback: (msg) => {
      queue.push(msg);
      wake?.();
      wake = undefined;
    },
  });
  process.send?.('ready');
  for (;;) {
    if (queue.length === 0) {
      await new Promise<void>((resolve) => (wake = resolve));
      continue;
    }
    const batch = takeBatch(queue, input.batchMessages, (msg) => deviceOfSubject(msg.subject));
    const now = Date.now();
    for (const msg of batch) {
      const routed = routeMessage(
        { subject: bus.unprefixed(msg.subject), data: msg.data, seq: msg.seq, receivedAt: Math.floor(Number(msg.info.timestampNanos) / 1e6) },
        now,
      );
      if (routed.kind !== 'readings') throw new Error(`the pipeline bench publishes readings only; ${msg.subject} was ${routed.kind}`);
    }
    for (const msg of batch) msg.ack();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
