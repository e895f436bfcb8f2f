import { z } from 'zod';
import { EPISODE_CODES } from '@meter/consumption';

/**
 * An alert episode as integrators see it: the gateway's `GET /meter/v1/alerts`
 * and the `data` of alert.raised and alert.cleared webhooks
 * (docs/alerts-and-webhooks.md). One schema for both.
 */
export const alertEpisode = z.object({
  id: z.uuid().meta({ description: 'Stable: the same episode has the same id in every answer and event.' }),
  device_id: z.int().min(1).max(Number.MAX_SAFE_INTEGER),
  channel: z.int().min(1),
  code: z.enum(EPISODE_CODES).meta({
    description:
      'LEAK: no still hour in 24 h; BURST: an interval above the burst threshold; NO_FLOW: no consumption for no_flow_days; ' +
      'NO_COMMUNICATION: no reading for max_silence_hours; TAMPER, LOW_BATTERY, REVERSE_FLOW, DRY, MAGNETIC, OTHER: device alarms.',
  }),
  state: z.enum(['open', 'cleared']),
  raised_at: z.iso.datetime().meta({ description: 'ISO 8601 UTC with milliseconds.' }),
  cleared_at: z.iso.datetime().nullable().meta({ description: 'Null while open.' }),
  message: z.string(),
});

export type AlertEpisodeView = z.output<typeof alertEpisode>;
