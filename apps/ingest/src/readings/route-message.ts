import { alarmMessage, deviceMessage, parseMeterSubject, readingMessage, readReadingMessage } from '@meter/contracts';
import type { ReadingRow } from '../reading-store/reading-batch';
import type { AlarmUpdate, DeviceUpdate } from './updates';
import type { z } from 'zod';

/** What the ingest makes of one bus message. */
export type RoutedMessage =
  | { kind: 'readings'; rows: ReadingRow[] }
  | { kind: 'device'; update: DeviceUpdate }
  | { kind: 'alarm'; update: AlarmUpdate }
  | { kind: 'dead'; deadLetterKind: string; cause: DeadLetterCause; reason: string };

/**
 * Why a message was dead-lettered, in a few words operators can count by
 * (`meter_ingest_dead_letters_total{reason}`); `reason` says it in full.
 */
export type DeadLetterCause = 'invalid_subject' | 'not_json' | 'invalid_message' | 'future_timestamp' | 'rejected_by_database';

export interface IncomingMessage {
  /** subject without the bus prefix */
  subject: string;
  data: Uint8Array;
  seq: number;
  /** epoch ms JetStream stored it */
  receivedAt: number;
}

/** Readings further ahead of the ingest clock than this are refused as bad clocks. */
export const MAX_FUTURE_MS = 24 * 3600 * 1000;

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Routes and validates one message; never throws: what cannot be used becomes a dead letter with the reason. */
export function routeMessage(message: IncomingMessage, nowMs: number): RoutedMessage {
  const subject = parseMeterSubject(message.subject);
  if (subject.kind === 'invalid') return { kind: 'dead', deadLetterKind: 'unknown', cause: 'invalid_subject', reason: subject.reason };
  const dead = (reason: string, cause: DeadLetterCause = 'invalid_message'): RoutedMessage => ({ kind: 'dead', deadLetterKind: subject.kind, cause, reason });
  let payload: unknown;
  try {
    payload = JSON.parse(decoder.decode(message.data));
  } catch {
    return dead('payload is not valid UTF-8 JSON', 'not_json');
  }
  if (subject.kind === 'devices') {
    const parsed = deviceMessage.safeParse(payload);
    if (!parsed.success) return dead(describe(parsed.error));
    return {
      kind: 'device',
      update: { orgId: subject.orgId, deviceId: subject.deviceId, seq: message.seq, receivedAt: message.receivedAt, device: parsed.data },
    };
  }
  if (subject.kind === 'alarms') {
    const parsed = alarmMessage.safeParse(payload);
    if (!parsed.success) return dead(describe(parsed.error));
    if (parsed.data.at > nowMs + MAX_FUTURE_MS) return dead('at is more than 24 h in the future', 'future_timestamp');
    return { kind: 'alarm', update: { orgId: subject.orgId, deviceId: subject.deviceId, seq: message.seq, alarm: parsed.data } };
  }
  const { orgId, deviceId } = subject;
  const seq = message.seq;
  const rows = readReadingMessage(payload, (readAt, value, channel): ReadingRow => ({ orgId, deviceId, channel, readAt, value, seq }));
  if (rows === undefined) {
    // Refused: the schema, the source of truth, says why (and decides, should the two ever differ).
    const parsed = readingMessage.safeParse(payload);
    if (!parsed.success) return dead(describe(parsed.error));
    return readingsOf(
      parsed.data.map((r) => ({ orgId, deviceId, channel: r.channel, readAt: r.read_at, value: r.value, seq })),
      nowMs,
      dead,
    );
  }
  return readingsOf(rows, nowMs, dead);
}

function readingsOf(rows: ReadingRow[], nowMs: number, dead: (reason: string, cause?: DeadLetterCause) => RoutedMessage): RoutedMessage {
  const tooLate = rows.findIndex((r) => r.readAt > nowMs + MAX_FUTURE_MS);
  if (tooLate >= 0) return dead(`read_at of item ${tooLate} is more than 24 h in the future`, 'future_timestamp');
  return { kind: 'readings', rows };
}

function describe(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : 'payload'}: ${issue.message}`)
    .join('; ');
}
