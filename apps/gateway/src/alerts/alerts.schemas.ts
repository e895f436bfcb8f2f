import { z } from 'zod';
import { alertEpisode } from '@meter/contracts';
import { alertStateParam, deviceIdParam, pageSizeParam } from '@meter/device-reports';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../paging/page-size';

/**
 * The query of GET /meter/v1/alerts: the controller checks these in this
 * order (an answer names the first bad one); the page token's verifier checks the token.
 */
export const alertListParams = z.object({
  state: alertStateParam.optional().meta({ description: 'Default `open`.' }),
  device_id: deviceIdParam.optional().meta({ description: 'Only this device; absent: every device of the organization.', param: { example: 1042 } }),
  limit: pageSizeParam(MAX_PAGE_SIZE)
    .optional()
    .meta({ description: `Page size 1..${MAX_PAGE_SIZE}. Default ${DEFAULT_PAGE_SIZE}.` }),
});

export const alertListQuery = alertListParams.extend({
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
