import { z } from 'zod';
import { ALARM_MESSAGE_CODES } from '@meter/consumption';
import { DEFAULT_CHANNEL, MAX_CHANNEL, MIN_CHANNEL, readAtSchema } from './readings';

/**
 * `meter.alarms.<org_id>.<device_id>`: a collector raises or clears a device
 * alarm (tamper, low battery, reverse flow, dry pipe, magnetic interference,
 * other). Each opens or closes an alert episode of that code on the channel;
 * a message this schema refuses goes to `meter.deadletter.alarms` with the reason.
 */
export const alarmMessage = z.object({
  code: z.enum(ALARM_MESSAGE_CODES),
  state: z.enum(['raised', 'cleared']),
  /** When the device saw it: the episode's raised_at or cleared_at. */
  at: readAtSchema,
  channel: z.number().int().min(MIN_CHANNEL).max(MAX_CHANNEL).default(DEFAULT_CHANNEL),
  message: z.string().trim().min(1).max(500).optional(),
});

export type AlarmMessage = z.output<typeof alarmMessage>;
