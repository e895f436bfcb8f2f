import { SubjectOutboxRelay } from '@meter/messaging';
import { ADVISORY_LOCKS } from '@meter/persistence';
import { ALERT_EVENTS_CHANNEL } from './alert-outbox';

/**
 * Publishes the alert events that batches and the silence check committed to
 * the outbox (`ingest.alert_outbox`) to OUTBOUND_EVENTS, in order, with
 * `Nats-Msg-Id` = event id, marking each only after JetStream acknowledged
 * it: a crash in between publishes it again and the stream drops the copy.
 * One relay of all replicas publishes at a time; every commit wakes them
 * (NOTIFY from the outbox's trigger), a poll covers a lost notification.
 * An alert event waiting more than 30 s for the bus makes /readyz report
 * `alert-events` degraded; ingest keeps writing.
 */
export class AlertEventsRelay extends SubjectOutboxRelay({
  table: 'ingest.alert_outbox',
  name: 'alert-events',
  lockId: ADVISORY_LOCKS.alertOutbox,
  listenChannel: ALERT_EVENTS_CHANNEL,
  metrics: {
    published: { name: 'meter_ingest_alert_events_published_total', help: 'Alert events published to OUTBOUND_EVENTS' },
    oldestPending: {
      name: 'meter_ingest_alert_outbox_oldest_pending_seconds',
      help: 'Age of the oldest alert event not yet acknowledged by JetStream (0 when none)',
    },
  },
}) {}
