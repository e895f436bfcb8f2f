import { CREDENTIAL_SCOPES } from '@meter/contracts';
import { DEFAULT_PASSWORD_PARAMS, hashPassword, randomToken, type PasswordHashParams } from '@meter/crypto';
import { ProblemException } from '@meter/http';
import type { DataSource } from 'typeorm';
import { appendEvents } from '../events/event-store';
import { newEvent } from '../events/new-event';
import { newOrganization, normalizeEmail, type NewOrganization } from './organization-input';

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
    const taken = (await manager.query('SELECT 1 FROM auth.admins WHERE lower(email) = $1', [email])) as unknown[];
    if (taken.length) throw new EmailTaken();
    await manager.query('INSERT INTO auth.organizations (id, name, scopes, created_at, version) VALUES ($1, $2, $3, $4, 1)', [orgId, name, scopes, at]);
    try {
      await manager.query('INSERT INTO auth.admins (id, org_id, email, password_hash, active, created_at, version) VALUES ($1, $2, $3, $4, true, $5, 1)', [
        adminId,
        orgId,
        email,
        passwordHash,
        at,
      ]);
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
