import { platformStreams, type BusNames, type ConsumerSpec } from '@meter/contracts';

/**
 * The durable pull consumer every ingest replica shares. `ack_wait` is well
 * above one batch; deliveries are unlimited because a transient database
 * error must never drop a reading (bad messages go to dead letters instead).
 */
export function readingsConsumer(bus: BusNames, maxAckPending: number): ConsumerSpec {
  return {
    stream: platformStreams(bus).readings.name,
    durable: bus.consumer('INGEST_READINGS'),
    ackWaitSeconds: 60,
    maxDeliver: -1,
    maxAckPending,
  };
}
