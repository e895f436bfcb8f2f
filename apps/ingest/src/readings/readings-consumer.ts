import { platformStreams, type BusNames, type ConsumerSpec } from '@meter/contracts';

/** The default of INGEST_ACK_WAIT_SECONDS. */
export const DEFAULT_ACK_WAIT_SECONDS = 60;

/** Messages the ingest pulls ahead of its batches: two batches' worth, at least 100. */
export function readingsPullWindow(batchMessages: number): number {
  return Math.max(100, batchMessages * 2);
}

/**
 * The durable pull consumer every ingest replica shares. `ack_wait` is well
 * above one batch; deliveries are unlimited because a transient database
 * error must never drop a reading (bad messages go to dead letters instead).
 */
export function readingsConsumer(bus: BusNames, maxAckPending: number, ackWaitSeconds = DEFAULT_ACK_WAIT_SECONDS): ConsumerSpec {
  return {
    stream: platformStreams(bus).readings.name,
    durable: bus.consumer('INGEST_READINGS'),
    ackWaitSeconds,
    maxDeliver: -1,
    maxAckPending,
  };
}
