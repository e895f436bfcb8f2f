import { z } from 'zod';

export const EMAIL = z.email().max(254);
/** NIST SP 800-63B: at least 8 characters, long passphrases allowed. */
export const PASSWORD = z.string().min(8, 'must be at least 8 characters').max(1024, 'must be at most 1024 characters');

export const newOrganization = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty').max(200),
  adminEmail: EMAIL,
  adminPassword: PASSWORD,
});
export type NewOrganization = z.infer<typeof newOrganization>;

/** Emails compare case-insensitively; stored in this form. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
