import { SubjectOutboxRelay } from '@meter/messaging';
import { ADVISORY_LOCKS } from '@meter/persistence';

/**
 * Publishes export.succeeded and export.failed events from the outbox to
 * OUTBOUND_EVENTS (`events.<org>.<type>`), in order, with `Nats-Msg-Id` =
 * event id, so a re-publish after a crash is dropped by the stream.
 */
export class ExportOutboxRelay extends SubjectOutboxRelay({
  table: 'integrations.export_outbox',
  name: 'export-events',
  lockId: ADVISORY_LOCKS.exportOutbox,
}) {}
