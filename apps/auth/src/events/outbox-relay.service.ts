import { OutboxRelayProvider } from '@meter/messaging';
import { jetStreamPublisher } from './jetstream-publisher';
import { AUTH_EVENTS_OUTBOX, publishStoredEvent } from './outbox-relay';

/**
 * Runs the outbox relay for the life of the auth process. Serving goes on
 * while the bus is away (events wait in the table): `outbox` degrades after
 * 30 s, it does not fail.
 */
export class OutboxRelayService extends OutboxRelayProvider({
  name: 'outbox',
  table: AUTH_EVENTS_OUTBOX,
  publisher: (js, bus) => publishStoredEvent(jetStreamPublisher(js, bus)),
  metrics: {
    published: { name: 'meter_auth_outbox_published_total', help: 'Auth events published to JetStream' },
    failures: { name: 'meter_auth_outbox_publish_failures_total', help: 'Relay passes that stopped on a failed publish (retried)' },
    oldestPending: { name: 'meter_auth_outbox_oldest_pending_seconds', help: 'Age of the oldest auth event not yet acknowledged by JetStream (0 when none)' },
  },
}) {}
