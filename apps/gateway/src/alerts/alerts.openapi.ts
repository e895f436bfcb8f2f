import { invalidRequest, INVALID_DEVICE_ID, RATE_LIMIT_STATE } from '../request/request-params.openapi';
import { checkQuery, Documented, jsonResponse, problemThrownBy, validationFailed } from '@meter/http';
import { signAlertPageToken } from './alert-page-token';
import { alertListParams, alertListQuery, alertListSchema } from './alerts.schemas';

const LEAK = {
  id: '6f1d2c3b-4a59-8e7f-9d0c-1b2a3f4e5d6c',
  device_id: 1042,
  channel: 1,
  code: 'LEAK' as const,
  state: 'open' as const,
  raised_at: '2026-11-21T06:00:00.000Z',
  cleared_at: null,
  message: 'Water flowed in every hour of the 24 hours to 2026-11-21T06:00:00Z (more than 0 per hour): a leak is likely.',
};
const TAMPER = {
  id: '0c9b8a7f-6e5d-8c4b-a3a2-9180f7e6d5c4',
  device_id: 1057,
  channel: 2,
  code: 'TAMPER' as const,
  state: 'cleared' as const,
  raised_at: '2026-11-20T22:14:09.000Z',
  cleared_at: '2026-11-20T22:31:40.000Z',
  message: 'The meter reports tampering.',
};
const TOKEN = signAlertPageToken([Buffer.alloc(32, 7)], 'org_riverside', { raisedAt: Date.parse(TAMPER.raised_at), id: TAMPER.id });

export const ApiAlertList = () =>
  Documented({
    summary: "List the organization's alert episodes",
    description:
      'Alert episodes of every device (or of `device_id`), newest first: LEAK, BURST, NO_FLOW and NO_COMMUNICATION computed from the readings, ' +
      'and the alarms the meters report. Open ones by default; `state=all` for the history. An id of no device of the organization gives an empty list.',
    request: { query: alertListQuery },
    responses: {
      200: jsonResponse(
        'A page of alerts.',
        alertListSchema,
        {
          open: { summary: 'The open alerts', value: { alerts: [LEAK], has_more: false, next_page_token: null } },
          all: { summary: '?state=all&limit=2: more to come', value: { alerts: [LEAK, TAMPER], has_more: true, next_page_token: TOKEN } },
        },
        RATE_LIMIT_STATE,
      ),
      400: invalidRequest({
        device_id: INVALID_DEVICE_ID,
        state: { summary: '?state=closed', problem: validationFailed([{ field: 'state', message: 'must be open, cleared or all' }]) },
        limit: { summary: '?limit=0', problem: problemThrownBy(() => checkQuery(alertListParams, { limit: '0' })) },
        next_page_token: {
          summary: 'A token edited by hand or issued to another organization',
          problem: validationFailed([{ field: 'next_page_token', message: 'is not a token this API issued to your organization' }]),
        },
      }),
    },
  });
