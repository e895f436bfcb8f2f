import { HOUR_MS } from './channel-state';
import { isoSecond } from './verdict';

/**
 * NO_COMMUNICATION, judged by the clock: the channel's latest reading is
 * more than `maxSilenceHours` before now. It opens at the instant the
 * silence passed the limit, so the same silence gives the same episode
 * whenever it is judged.
 */
export function silenceLimitPassedAt(latestReadAt: number, maxSilenceHours: number): number {
  return latestReadAt + maxSilenceHours * HOUR_MS;
}

/** Whether a reading at `readAt` ends a silence: newer than `maxSilenceHours` before now (a backfill of old readings does not). */
export function endsSilence(readAt: number, nowMs: number, maxSilenceHours: number): boolean {
  return readAt > nowMs - maxSilenceHours * HOUR_MS;
}

export function noCommunicationMessage(latestReadAt: number, maxSilenceHours: number): string {
  return `No reading since ${isoSecond(latestReadAt)}: silent for more than ${maxSilenceHours} hours.`;
}
