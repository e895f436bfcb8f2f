import { outboundEvent, outboundEventSubject, type OutboundEvent } from '@meter/contracts';
import { episodeView, type EpisodeRow, type Queryable } from '@meter/read-model';
import { derivedUuid } from './derived-id';

/** NOTIFY channel of new alert events (a trigger on the outbox); the relays LISTEN. */
export const ALERT_EVENTS_CHANNEL = 'ingest_alert_events';

/**
 * alert.raised or alert.cleared of an episode, as the webhooks deliver it.
 * Its id derives from the episode's, so the same change is the same event.
 */
export function alertEvent(type: 'alert.raised' | 'alert.cleared', row: EpisodeRow): OutboundEvent {
  const at = type === 'alert.raised' ? row.raised_at : row.cleared_at!;
  const data = episodeView(row);
  return outboundEvent.parse({
    event_id: derivedUuid(`event\n${row.id}\n${type}`),
    type,
    org_id: row.org_id,
    occurred_at: new Date(at).toISOString(),
    // The raise is announced as it was at the moment it opened, even when the same batch also closed it.
    data: type === 'alert.raised' ? { ...data, state: 'open', cleared_at: null } : data,
  });
}

/** Appends events to the outbox in the caller's transaction; one already there is not added twice. */
export async function appendAlertEvents(db: Queryable, events: readonly OutboundEvent[]): Promise<void> {
  if (events.length === 0) return;
  await db.query(
    `INSERT INTO ingest.alert_outbox (org_id, event_id, subject, payload)
     SELECT * FROM unnest($1::text[], $2::uuid[], $3::text[], $4::jsonb[]) ON CONFLICT (org_id, event_id) DO NOTHING`,
    [
      events.map((e) => e.org_id),
      events.map((e) => e.event_id),
      events.map((e) => outboundEventSubject(e.org_id, e.type)),
      events.map((e) => JSON.stringify(e)),
    ],
  );
}
