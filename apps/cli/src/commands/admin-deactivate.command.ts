import { Command } from 'commander';
import { action, UsageError } from '../usage';

/**
 * The operator's way to lock an admin out (there is no management route for
 * it: an admin cannot deactivate themselves or a colleague through the API).
 * Sessions of the admin end at once; the events say so.
 */
export const adminDeactivateCommand = () =>
  new Command('deactivate')
    .description('stop an admin logging in and end their sessions; prints {"admin_id","org_id","deactivated"}')
    .requiredOption('--email <email>', "the admin's login")
    .action(
      action(async ({ email }: { email: string }) => {
        if (!email.includes('@')) throw new UsageError('--email: the admin email is required');
        const [{ loadConfig }, { adminByEmail, authDataSource, deactivateAdmin }] = await Promise.all([import('@meter/config'), import('@meter/auth')]);
        const config = loadConfig();
        const dataSource = await authDataSource(config);
        try {
          const admin = await adminByEmail(dataSource, email.toLowerCase());
          if (!admin) throw new Error(`no admin with email ${email}`);
          const deactivated = await deactivateAdmin(dataSource, admin.id);
          // false: it was already inactive; nothing changed.
          process.stdout.write(`${JSON.stringify({ admin_id: admin.id, org_id: admin.org_id, deactivated })}\n`);
        } finally {
          await dataSource.destroy();
        }
      }),
    );
