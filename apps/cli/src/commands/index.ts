import { Command } from 'commander';
import { adminDeactivateCommand } from './admin-deactivate.command';
import { callCommand } from './call.command';
import { demoCommand } from './demo.command';
import { keysRotateCredentialsCommand } from './keys-rotate-credentials.command';
import { keysRotateVaultCommand } from './keys-rotate-vault.command';
import { migrateCommand } from './migrate.command';
import { orgCreateCommand } from './org-create.command';
import { rebuildCommand } from './rebuild.command';
import { signCommand } from './sign.command';
import { simulateCommand } from './simulate.command';

/** A command that only groups others (`org create`); its line in the help names them. */
const group = (name: string, description: string, ...commands: Command[]) => {
  const command = new Command(name).description(`${description}: ${commands.map((c) => `${name} ${c.name()}`).join(', ')}`);
  for (const sub of commands) command.addCommand(sub);
  return command;
};

/** Every command of the CLI; `--help` lists them in this order. */
export function commandTree(): Command[] {
  return [
    migrateCommand(),
    group('org', 'organizations', orgCreateCommand()),
    group('admin', 'organization admins', adminDeactivateCommand()),
    group('keys', 'key rotation', keysRotateCredentialsCommand(), keysRotateVaultCommand()),
    signCommand(),
    callCommand(),
    simulateCommand(),
    rebuildCommand(),
    demoCommand(),
  ];
}
