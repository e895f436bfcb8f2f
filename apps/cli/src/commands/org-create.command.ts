import { Command } from 'commander';
import { action, UsageError } from '../usage';

const FLAGS: Record<string, string> = { name: '--name', adminEmail: '--admin-email', adminPassword: '--admin-password' };

export const orgCreateCommand = () =>
  new Command('create')
    .description('create an organization and its first admin; prints {"org_id","admin_email"}')
    .requiredOption('--name <name>', 'the organization name')
    .requiredOption('--admin-email <email>', "the first admin's login")
    .requiredOption('--admin-password <password>', "the first admin's password (at least 8 characters)")
    .action(
      action(async (options: { name: string; adminEmail: string; adminPassword: string }) => {
        const [{ loadConfig }, { authDataSource, createOrganization, newOrganization }] = await Promise.all([import('@meter/config'), import('@meter/auth')]);
        const input = newOrganization.safeParse(options);
        if (!input.success) throw new UsageError(input.error.issues.map((i) => `${FLAGS[String(i.path[0])] ?? String(i.path[0])}: ${i.message}`).join('\n'));
        const config = loadConfig();
        const dataSource = await authDataSource(config);
        try {
          const created = await createOrganization(dataSource, input.data);
          process.stdout.write(`${JSON.stringify({ org_id: created.orgId, admin_email: created.adminEmail })}\n`);
        } finally {
          await dataSource.destroy();
        }
      }),
    );
