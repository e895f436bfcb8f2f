import type { JetStreamManager } from '@nats-io/jetstream';
import type { BusNames } from '@meter/contracts';
import { readingsConsumer } from '../../apps/ingest/src/readings/readings-consumer';

/**
 * Resolves once the ingest service has acknowledged every readings-stream
 * message up to `sequence`. It acknowledges only after the read model has
 * committed, so the gateway then answers from all of them.
 */
export async function waitForIngest(jsm: JetStreamManager, bus: BusNames, sequence: number, timeoutMs: number): Promise<void> {
  const { stream, durable } = readingsConsumer(bus, 1);
  const deadline = Date.now() + timeoutMs;
  let last = 'the ingest consumer does not exist yet';
  while (Date.now() < deadline) {
    const info = await jsm.consumers.info(stream, durable).catch(() => undefined);
    if (info) {
      if (info.ack_floor.stream_seq >= sequence) return;
      last = `acknowledged up to message ${info.ack_floor.stream_seq} of ${sequence}`;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`ingest did not take in the readings within ${Math.round(timeoutMs / 1000)} s (${last}): is the ingest process running?`);
}
