import { loadConfigOrExit } from '@meter/config';
import { authDataSource } from '../../../auth/src/auth-data-source';
import { createOrganization } from '../../../auth/src/organizations/create-organization';
import { newOrganization } from '../../../auth/src/organizations/organization-input';
import { parseFlags, UsageError, type Command } from '../command';

export const orgCreateCommand: Command = {
  name: 'org create',
  summary: 'create an organization and its first admin; prints {"org_id","admin_email"}',
  usage: '--name NAME --admin-email EMAIL --admin-password PASSWORD',
  async run(args) {
    const values = flagsOf(args);
    const input = newOrganization.safeParse({ name: values.name, adminEmail: values['admin-email'], adminPassword: values['admin-password'] });
    if (!input.success) {
      const flags: Record<string, string> = { name: '--name', adminEmail: '--admin-email', adminPassword: '--admin-password' };
      throw new UsageError(input.error.issues.map((i) => `${flags[String(i.path[0])] ?? String(i.path[0])}: ${i.message}`).join('\n'));
    }
    const config = loadConfigOrExit();
    const dataSource = await authDataSource(config);
    try {
      const created = await createOrganization(dataSource, input.data);
      process.stdout.write(`${JSON.stringify({ org_id: created.orgId, admin_email: created.adminEmail })}\n`);
    } finally {
      await dataSource.destroy();
    }
  },
};

function flagsOf(args: string[]) {
  return parseFlags({
    args,
    options: { name: { type: 'string' }, 'admin-email': { type: 'string' }, 'admin-password': { type: 'string' } },
    strict: true,
    allowPositionals: false,
  }).values;
}
