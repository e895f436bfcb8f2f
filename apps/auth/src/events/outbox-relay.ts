import { authEvent, type AuthEvent } from '@meter/contracts';
import type { OutboxTable } from '@meter/messaging';
import { ADVISORY_LOCKS } from '@meter/persistence';
import { envelopeOf, EVENTS_CHANNEL, type StoredEventRow } from './event-store';

/** Publishes one event and resolves once the bus acknowledged it. */
export type EventPublisher = (event: AuthEvent) => Promise<void>;

/** The auth event table is the outbox; commits signal EVENTS_CHANNEL. */
export const AUTH_EVENTS_OUTBOX: OutboxTable<StoredEventRow> = {
  name: 'auth',
  selectPending: `SELECT seq, event_id, type, aggregate_id, org_id, version, occurred_at, payload
                    FROM auth.events WHERE published_at IS NULL ORDER BY seq LIMIT $1`,
  markPublished: 'UPDATE auth.events SET published_at = now() WHERE seq = ANY($1::bigint[])',
  oldestPendingAge: 'SELECT EXTRACT(EPOCH FROM now() - min(occurred_at))::float AS age FROM auth.events WHERE published_at IS NULL',
  lockId: ADVISORY_LOCKS.authOutbox,
  listenChannel: EVENTS_CHANNEL,
};

/** A stored row published as its event, typed by the event's schema. */
export const publishStoredEvent =
  (publish: EventPublisher) =>
  (row: StoredEventRow): Promise<void> =>
    publish(authEvent.parse(envelopeOf(row)));
