import type { BusNames } from './bus';

export interface StreamSpec {
  name: string;
  subjects: string[];
  /** How long messages are kept, in seconds; 0 keeps them until limits apply. */
  maxAgeSeconds: number;
  /** Window within which `Nats-Msg-Id` duplicates are dropped, in seconds. */
  duplicateWindowSeconds: number;
}

export interface ConsumerSpec {
  stream: string;
  durable: string;
  filterSubjects?: string[];
  ackWaitSeconds: number;
  maxDeliver: number;
  maxAckPending: number;
  /** Redelivery delays in seconds, one per attempt (the last one repeats). */
  backoffSeconds?: number[];
}

const DAY = 24 * 3600;

/** The streams of the platform, with names and subjects under the bus prefix. */
export function platformStreams(bus: BusNames) {
  return {
    readings: {
      name: bus.stream('READINGS'),
      subjects: [bus.subject('meter.readings.>'), bus.subject('meter.devices.>'), bus.subject('meter.alarms.>')],
      maxAgeSeconds: 7 * DAY,
      duplicateWindowSeconds: 120,
    },
    deadLetters: {
      name: bus.stream('DEAD_LETTERS'),
      subjects: [bus.subject('meter.deadletter.>')],
      maxAgeSeconds: 30 * DAY,
      duplicateWindowSeconds: 120,
    },
    authEvents: {
      name: bus.stream('AUTH_EVENTS'),
      subjects: [bus.subject('auth.events.>')],
      maxAgeSeconds: 0,
      duplicateWindowSeconds: 600,
    },
    outboundEvents: {
      name: bus.stream('OUTBOUND_EVENTS'),
      subjects: [bus.subject('events.>')],
      maxAgeSeconds: 14 * DAY,
      duplicateWindowSeconds: 600,
    },
    vaultAudit: {
      name: bus.stream('VAULT_AUDIT'),
      subjects: [bus.subject('vault.audit.>')],
      maxAgeSeconds: 365 * DAY,
      duplicateWindowSeconds: 600,
    },
  } satisfies Record<string, StreamSpec>;
}
