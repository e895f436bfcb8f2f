import { COMMANDS } from './commands';
import { UsageError, type Command } from './command';

function help(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'usage: npm run cli -- <command> [options]',
    '',
    'commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run `npm run cli -- <command> --help` for its options.',
  ].join('\n');
}

/** The longest command whose words start the arguments: `org create --name x` finds `org create`. */
function find(argv: string[]): { command: Command; rest: string[] } | undefined {
  const matches = COMMANDS.filter((c) => {
    const words = c.name.split(' ');
    return words.every((w, i) => argv[i] === w);
  }).sort((a, b) => b.name.length - a.name.length);
  if (!matches.length) return undefined;
  return { command: matches[0], rest: argv.slice(matches[0].name.split(' ').length) };
}

async function main(argv: string[]) {
  if (argv.length === 0 || ['--help', '-h', 'help'].includes(argv[0])) {
    console.log(help());
    return;
  }
  const found = find(argv);
  if (!found) {
    console.error(`unknown command: ${argv.join(' ')}\n\n${help()}`);
    process.exitCode = 2;
    return;
  }
  if (found.rest.includes('--help') || found.rest.includes('-h')) {
    console.log(`usage: npm run cli -- ${found.command.name}${found.command.usage ? ` ${found.command.usage}` : ''}\n\n${found.command.summary}`);
    return;
  }
  try {
    await found.command.run(found.rest);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\nusage: npm run cli -- ${found.command.name} ${found.command.usage ?? ''}`);
      process.exitCode = 2;
      return;
    }
    throw error;
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
