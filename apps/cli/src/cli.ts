import { Command, CommanderError } from 'commander';
import { commandTree } from './commands';
import { EXIT } from './usage';
import { platformVersion } from './version';

/*
 * Commands load the platform's libraries only when they run (dynamic imports
 * in their actions), so `--help` and `--version` answer at once.
 */

/** Every command of the tree behaves alike: errors are thrown to `runCli`, which picks the exit code. */
function configure(command: Command): Command {
  command.exitOverride().showHelpAfterError(`(run \`${['npm run cli --', ...path(command), '--help'].join(' ')}\` for usage)`);
  for (const sub of command.commands) configure(sub);
  return command;
}

/** The words that name the command: `['keys', 'rotate-vault']`. */
function path(command: Command): string[] {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names;
}

/** An error's message with its cause's (fetch says only "fetch failed"; the cause says why). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message;
}

/** The command-line tool: `npm run cli -- <command> [options]`. */
export function buildCli(): Command {
  const program = new Command('npm run cli --')
    .description('The metering platform from the command line: organizations, keys, signed gateway calls, simulated meters, the read model.')
    .version(platformVersion(), '-V, --version', 'print the version')
    .addHelpText('after', '\nExit codes: 0 done, 1 failed (an error answer, a server down), 2 usage (bad command, option or environment).');
  for (const command of commandTree()) program.addCommand(command);
  return configure(program);
}

/** Runs one invocation and returns its exit code: 0 done, 1 failed, 2 usage. */
export async function runCli(argv: string[]): Promise<number> {
  const program = buildCli();
  try {
    if (argv.length === 0) {
      program.outputHelp({ error: true });
      return EXIT.usage;
    }
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    // commander has printed its message (or the help, or the version) already
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    const { ConfigError } = await import('@meter/config');
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return EXIT.usage;
    }
    process.stderr.write(`error: ${describe(error)}\n`);
    return EXIT.failed;
  }
}
