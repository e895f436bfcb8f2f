import { z } from 'zod';
import { alertEpisode } from '@meter/contracts';
import { deviceIdSchema } from '../read-model/request-params.openapi';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../devices/page-size';

/** The query of GET /meter/v1/alerts (alerts.controller.ts checks it). */
export const alertListQuery = z.object({
  device_id: deviceIdSchema.optional().meta({ description: 'Only this device; absent: every device of the organization.', param: { example: 1042 } }),
  state: z.enum(['open', 'cleared', 'all']).optional().meta({ description: 'Default `open`.' }),
  limit: z
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .optional()
    .meta({ description: `Page size 1..${MAX_PAGE_SIZE}. Default ${DEFAULT_PAGE_SIZE}.` }),
  next_page_token: z.string().min(1).optional().meta({ description: 'The `next_page_token` of the previous page; a forged or foreign token: 400.' }),
});

export const alertSchema = alertEpisode.meta({ id: 'AlertEpisode', description: 'An alert episode of a device channel, open until cleared.' });

export const alertListSchema = z
  .object({
    alerts: z.array(alertSchema).meta({ description: 'Newest first (by raised_at).' }),
    has_more: z.boolean(),
    next_page_token: z.string().nullable().meta({ description: 'Opaque token of the next page; null on the last page.' }),
  })
  .meta({ id: 'AlertList' });

export type AlertList = z.output<typeof alertListSchema>;
