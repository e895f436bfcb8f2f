import { CREDENTIAL_SCOPES } from '@meter/contracts';
import { DEFAULT_PASSWORD_PARAMS, hashPassword, randomToken, type PasswordHashParams } from '@meter/crypto';
import { ProblemException } from '@meter/http';
import type { DataSource } from 'typeorm';
import { appendEvents } from '../events/event-store';
import { newEvent } from '../events/new-event';
import { newOrganization, normalizeEmail, type NewOrganization } from './organization-input';
import { adminByEmail, insertAdmin, insertOrganization } from './organization-store';

export interface CreatedOrganization {
  orgId: string;
  adminId: string;
  adminEmail: string;
}

export class EmailTaken extends ProblemException {
  constructor() {
    super(409, 'email_taken', 'an admin with this email already exists');
  }
}

/**
 * Creates an organization with its first admin (used by `cli org create`
 * and by tests). The organization may use every scope the platform has.
 */
export async function createOrganization(
  dataSource: DataSource,
  input: NewOrganization,
  passwordParams: PasswordHashParams = DEFAULT_PASSWORD_PARAMS,
): Promise<CreatedOrganization> {
  const { name, adminEmail, adminPassword } = newOrganization.parse(input);
  const email = normalizeEmail(adminEmail);
  const orgId = `org_${randomToken(16)}`;
  const adminId = `adm_${randomToken(16)}`;
  const passwordHash = await hashPassword(adminPassword, passwordParams);
  const scopes = [...CREDENTIAL_SCOPES];
  const at = new Date();
  await dataSource.transaction(async (manager) => {
    if (await adminByEmail(manager, email)) throw new EmailTaken();
    await insertOrganization(manager, orgId, name, scopes, at);
    try {
      await insertAdmin(manager, adminId, orgId, email, passwordHash, at);
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw new EmailTaken();
      throw error;
    }
    await appendEvents(manager, [
      newEvent('organization.created', { aggregateId: orgId, orgId, version: 1 }, { name, scopes }, at),
      newEvent('admin.created', { aggregateId: adminId, orgId, version: 1 }, { admin_id: adminId, email }, at),
    ]);
  });
  return { orgId, adminId, adminEmail: email };
}
