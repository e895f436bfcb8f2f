import { z } from 'zod';
import { deviceIdSchema, pageSizeParam } from '@meter/device-reports';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../paging/page-size';

const pageSize = pageSizeParam(MAX_PAGE_SIZE);

/** The page size of GET /meter/v1/devices, checked in this order (`ipp` only without `limit`); the token's verifier checks the token. */
export const deviceListParams = z.object({
  limit: pageSize.optional().meta({ description: `Page size 1..${MAX_PAGE_SIZE}; wins over \`ipp\`. Default ${DEFAULT_PAGE_SIZE}.`, param: { example: 20 } }),
  ipp: pageSize.optional().meta({ description: `Items per page 1..${MAX_PAGE_SIZE}, when \`limit\` is absent. Default ${DEFAULT_PAGE_SIZE}.` }),
});

/** The query of GET /meter/v1/devices. */
export const deviceListQuery = deviceListParams.extend({
  next_page_token: z
    .string()
    .min(1)
    .optional()
    .meta({ description: 'The `next_page_token` (or `next_cursor`) of the previous page; a forged or foreign token: 400.' }),
});

const nextToken = z.string().nullable();

/** Both list shapes in one object, ordered by id: `rows`/`has_more`/`next_page_token` and `devices`/`next_cursor`. */
export const deviceListSchema = z
  .object({
    rows: z.array(z.object({ id: deviceIdSchema, name: z.string() })).meta({ description: 'The page, first shape.' }),
    has_more: z.boolean(),
    next_page_token: nextToken.meta({ description: 'Opaque token of the next page; null on the last page.' }),
    devices: z
      .array(
        z.object({
          device_id: z
            .string()
            .regex(/^[1-9][0-9]*$/)
            .meta({ description: 'The id of `rows[].id`, as a string.' }),
          activated_at: z.iso.datetime().meta({ description: 'ISO 8601 UTC with milliseconds.' }),
          channels: z.int().min(1),
        }),
      )
      .meta({ description: 'The same devices in the same order, second shape.' }),
    next_cursor: nextToken.meta({ description: 'Equals `next_page_token`.' }),
  })
  .meta({ id: 'DeviceList' });

export type DeviceList = z.output<typeof deviceListSchema>;
