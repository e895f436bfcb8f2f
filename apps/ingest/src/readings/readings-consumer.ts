import { platformStreams, type BusNames, type ConsumerSpec } from '@meter/contracts';

/**
 * The durable pull consumer every ingest replica shares. `ack_wait` is well
 * above one batch; deliveries are unlimited because a transient database
 * error must never drop a reading (bad messages go to dead letters instead).
 */
/** Messages the ingest pulls ahead of its batches: two batches' worth, at least 100. */
export function readingsPullWindow(batchMessages: number): number {
  return Math.max(100, batchMessages * 2);
}

export function readingsConsumer(bus: BusNames, maxAckPending: number): ConsumerSpec {
  return {
    stream: platformStreams(bus).readings.name,
    durable: bus.consumer('INGEST_READINGS'),
    ackWaitSeconds: 60,
    maxDeliver: -1,
    maxAckPending,
  };
}
