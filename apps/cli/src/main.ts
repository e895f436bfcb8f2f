import { loadConfigOrExit } from '@meter/config';
import { migrateAll } from '../../../scripts/migrate-all';

interface Command {
  summary: string;
  run(args: string[]): Promise<void>;
}

const COMMANDS: Record<string, Command> = {
  migrate: {
    summary: 'create the database if absent and apply pending migrations',
    async run() {
      const config = loadConfigOrExit();
      await migrateAll(config.DATABASE_URL, (line) => console.error(line));
    },
  },
};

function help(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  return [
    'usage: npm run cli -- <command> [options]',
    '',
    'commands:',
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`),
  ].join('\n');
}

async function main(argv: string[]) {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(help());
    return;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.error(`unknown command: ${name}\n\n${help()}`);
    process.exitCode = 2;
    return;
  }
  await command.run(rest);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
