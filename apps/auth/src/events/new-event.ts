import { randomUUID } from 'node:crypto';
import { authEvent, type AuthEvent, type AuthEventType } from '@meter/contracts';

export type EventOf<T extends AuthEventType> = Extract<AuthEvent, { type: T }>;

export interface EventTarget {
  aggregateId: string;
  orgId: string;
  /** Version of the aggregate after this event. */
  version: number;
}

/** A new domain event, validated by the same schema its consumers use. */
export function newEvent<T extends AuthEventType>(type: T, target: EventTarget, payload: EventOf<T>['payload'], at = new Date()): EventOf<T> {
  return authEvent.parse({
    event_id: randomUUID(),
    type,
    aggregate_id: target.aggregateId,
    org_id: target.orgId,
    version: target.version,
    occurred_at: at.toISOString(),
    payload,
  }) as EventOf<T>;
}
