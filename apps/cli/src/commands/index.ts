import type { Command } from '../command';
import { adminDeactivateCommand } from './admin-deactivate.command';
import { callCommand } from './call.command';
import { keysRotateCredentialsCommand } from './keys-rotate-credentials.command';
import { keysRotateVaultCommand } from './keys-rotate-vault.command';
import { migrateCommand } from './migrate.command';
import { orgCreateCommand } from './org-create.command';
import { rebuildCommand } from './rebuild.command';
import { signCommand } from './sign.command';
import { simulateCommand } from './simulate.command';

/** Every command of the CLI; `--help` lists them in this order. */
export const COMMANDS: Command[] = [
  migrateCommand,
  orgCreateCommand,
  adminDeactivateCommand,
  keysRotateCredentialsCommand,
  keysRotateVaultCommand,
  signCommand,
  callCommand,
  simulateCommand,
  rebuildCommand,
];
