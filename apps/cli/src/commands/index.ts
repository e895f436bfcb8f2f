import type { Command } from '../command';
import { callCommand } from './call.command';
import { migrateCommand } from './migrate.command';
import { rebuildCommand } from './rebuild.command';
import { signCommand } from './sign.command';
import { simulateCommand } from './simulate.command';

/** Every command of the CLI; `--help` lists them in this order. */
export const COMMANDS: Command[] = [migrateCommand, signCommand, callCommand, simulateCommand, rebuildCommand];
