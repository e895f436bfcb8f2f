import type { JetStreamClient } from '@nats-io/jetstream';
import { authEventSubject, type BusNames } from '@meter/contracts';
import type { EventPublisher } from './outbox-relay';

/** Publishes to `auth.events.<type>` and waits for the stream's ack; the event id is the dedup id. */
export function jetStreamPublisher(js: JetStreamClient, bus: BusNames): EventPublisher {
  return async (event) => {
    await js.publish(bus.subject(authEventSubject(event.type)), JSON.stringify(event), { msgID: event.event_id, timeout: 5000 });
  };
}
