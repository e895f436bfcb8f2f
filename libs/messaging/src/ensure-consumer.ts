import { AckPolicy, DeliverPolicy, JetStreamApiCodes, type ConsumerInfo, type JetStreamManager } from '@nats-io/jetstream';
import { nanos } from '@nats-io/nats-core';
import type { ConsumerSpec } from '@meter/contracts';
import { isNotFound } from './ensure-stream';

/** Declares a durable pull consumer with explicit acks; updates what may change. */
export async function ensureConsumer(jsm: JetStreamManager, spec: ConsumerSpec): Promise<ConsumerInfo> {
  const mutable = {
    ack_wait: nanos(spec.ackWaitSeconds * 1000),
    max_deliver: spec.maxDeliver,
    max_ack_pending: spec.maxAckPending,
    backoff: spec.backoffSeconds?.map((s) => nanos(s * 1000)),
    filter_subjects: spec.filterSubjects,
  };
  try {
    await jsm.consumers.info(spec.stream, spec.durable);
    return await jsm.consumers.update(spec.stream, spec.durable, mutable);
  } catch (error) {
    if (!isNotFound(error, JetStreamApiCodes.ConsumerNotFound)) throw error;
    return jsm.consumers.add(spec.stream, {
      durable_name: spec.durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ...mutable,
    });
  }
}
