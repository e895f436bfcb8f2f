import { Documented, jsonResponse, notFound, problemResponse, validationFailed } from '@meter/http';
import { auditEntryPath, auditEntrySchema, auditLogQuery, auditLogSchema, type AuditEntryView } from './audit-log.schemas';

const SIGN_IN: AuditEntryView = {
  id: '10452',
  occurred_at: '2026-11-21T09:40:12.511Z',
  action: 'session.signed_in',
  actor: { type: 'admin', admin_id: 'adm_4Jx1c9QwZr2T7kLmN0pVbA', email: 'ana@riverside-water.example' },
  target_id: 'ses_9fK2mQ7xLw1Rz4TbN8cVdA',
  detail: null,
};
const CREATED: AuditEntryView = {
  ...SIGN_IN,
  id: '10457',
  occurred_at: '2026-11-21T09:41:03.118Z',
  action: 'credential.created',
  target_id: 'cred_0aB1cD2eF3gH4iJ5kL6mN7',
  detail: 'Billing export',
};

export const ApiAuditLog = () =>
  Documented({
    summary: "The organization's audit log",
    description:
      'Who did what and when, newest first: sign-ins and sign-outs, credentials created, changed and revoked, vault entries written and deleted, ' +
      'export integrations and webhook endpoints changed. Metadata only: never a secret, a masked hint or a request body. Keyset paging.',
    request: { query: auditLogQuery },
    responses: {
      200: jsonResponse('A page of entries.', auditLogSchema, {
        page: {
          summary: 'A credential created after a sign-in',
          value: { entries: [CREATED, SIGN_IN], has_more: true, next_page_token: 'eyJiIjoiMTA0NTIifQ' },
        },
      }),
      400: problemResponse('`validation_failed`: a parameter is invalid; `errors` names it.', {
        limit: { summary: '?limit=0', problem: validationFailed([{ field: 'limit', message: 'must be an integer from 1 to 200' }]) },
        next_page_token: {
          summary: 'A token this list did not issue',
          problem: validationFailed([{ field: 'next_page_token', message: 'is not a token of this list' }]),
        },
      }),
    },
  });

export const ApiAuditEntry = () =>
  Documented({
    summary: 'One entry of the audit log',
    description: "Another organization's entries are unknown here (404).",
    request: { params: auditEntryPath },
    responses: {
      200: jsonResponse('The entry.', auditEntrySchema, { created: { summary: 'A credential created', value: CREATED } }),
      404: problemResponse('`not_found`: the organization has no audit entry with this id.', {
        not_found: { summary: 'An id of no entry of this organization', problem: notFound('no audit entry with this id in the organization') },
      }),
    },
  });
