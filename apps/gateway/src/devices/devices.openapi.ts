import { Documented, jsonResponse, validationFailed } from '@meter/http';
import { invalidRequest, RATE_LIMIT_STATE } from '../request/request-params.openapi';
import { deviceListQuery, deviceListSchema } from './devices.schemas';
import { MAX_PAGE_SIZE } from '../paging/page-size';
import { signPageToken } from '../paging/page-token';

/** A token as the gateway issues them (for the example organization, after device 1057). */
const EXAMPLE_TOKEN = signPageToken([Buffer.alloc(32, 7)], 'org_riverside', 1057);

export const ApiDeviceList = () =>
  Documented({
    summary: "List the organization's devices",
    description:
      'One page of devices ordered by id, in both list shapes: `rows`/`has_more`/`next_page_token` and `devices`/`next_cursor`. ' +
      'Pass `next_page_token` back to get the next page.',
    request: { query: deviceListQuery },
    responses: {
      200: jsonResponse(
        'A page of devices.',
        deviceListSchema,
        {
          first_page: {
            summary: '?limit=2: the first page, more to come',
            value: {
              rows: [
                { id: 1042, name: 'Riverside Tower – main supply' },
                { id: 1057, name: 'Riverside Tower – garden irrigation' },
              ],
              has_more: true,
              next_page_token: EXAMPLE_TOKEN,
              devices: [
                { device_id: '1042', activated_at: '2026-03-02T08:15:00.000Z', channels: 1 },
                { device_id: '1057', activated_at: '2026-04-17T10:40:00.000Z', channels: 2 },
              ],
              next_cursor: EXAMPLE_TOKEN,
            },
          },
          last_page: {
            summary: '?limit=2&next_page_token=…: the last page',
            value: {
              rows: [{ id: 1063, name: 'Harbour Office – kitchen' }],
              has_more: false,
              next_page_token: null,
              devices: [{ device_id: '1063', activated_at: '2026-06-09T07:05:00.000Z', channels: 1 }],
              next_cursor: null,
            },
          },
        },
        RATE_LIMIT_STATE,
      ),
      400: invalidRequest({
        limit: {
          summary: '?limit=501',
          problem: validationFailed([{ field: 'limit', message: `must be an integer from 1 to ${MAX_PAGE_SIZE}` }]),
        },
        next_page_token: {
          summary: 'A token edited by hand or issued to another organization',
          problem: validationFailed([{ field: 'next_page_token', message: 'is not a token this API issued to your organization' }]),
        },
      }),
    },
  });
