import { z } from 'zod';
import { AUDIT_ACTIONS } from '@meter/contracts';
import { pageSizeParam } from '@meter/device-reports';

export const DEFAULT_AUDIT_PAGE = 50;
export const MAX_AUDIT_PAGE = 200;

/** What checkQuery reads, in the order the answer names the first bad one; the page token is read by its decoder (audit-log-params.ts). */
export const auditLogParams = z.object({
  action: z.enum(AUDIT_ACTIONS).optional().meta({ description: 'Only entries of this action.' }),
  limit: pageSizeParam(MAX_AUDIT_PAGE)
    .optional()
    .meta({ description: `Page size 1..${MAX_AUDIT_PAGE}. Default ${DEFAULT_AUDIT_PAGE}.` }),
});
export const auditLogQuery = auditLogParams.extend({
  next_page_token: z.string().min(1).optional().meta({ description: 'The `next_page_token` of the previous page; anything else: 400.' }),
});

export const auditEntrySchema = z
  .object({
    id: z
      .string()
      .regex(/^[0-9]+$/)
      .meta({ description: 'The entry id; later entries have larger ids.' }),
    occurred_at: z.iso.datetime(),
    action: z.enum(AUDIT_ACTIONS).meta({ description: 'What happened, `<what>.<verb>`.' }),
    actor: z
      .object({
        type: z.enum(['admin', 'platform']).meta({ description: '`platform`: the operators’ CLI or a migration, not an admin of the organization.' }),
        admin_id: z.string().nullable(),
        email: z.string().nullable().meta({ description: "The admin's email; null for the platform." }),
      })
      .meta({ description: 'Who did it.' }),
    target_id: z.string().nullable().meta({ description: 'The id of what it was done to: a credential, session, vault entry, integration or endpoint.' }),
    detail: z
      .string()
      .nullable()
      .meta({ description: "A short description of the target (a credential's name, a vault entry's namespace/type). Never a secret." }),
  })
  .meta({ id: 'AuditEntry' });

export type AuditEntryView = z.output<typeof auditEntrySchema>;

export const auditLogSchema = z
  .object({
    entries: z.array(auditEntrySchema).meta({ description: 'Newest first.' }),
    has_more: z.boolean(),
    next_page_token: z.string().nullable().meta({ description: 'Opaque token of the next page; null on the last page.' }),
  })
  .meta({ id: 'AuditLog' });

export type AuditLogView = z.output<typeof auditLogSchema>;

export const auditEntryPath = z.object({ id: z.string().meta({ description: 'The entry id.', param: { example: '10452' } }) });
