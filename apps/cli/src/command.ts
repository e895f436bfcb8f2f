import { parseArgs, type ParseArgsConfig } from 'node:util';

/** One CLI command: `npm run cli -- <name> [args]`. */
export interface Command {
  /** Words after `cli`, e.g. `org create` or `migrate`. */
  name: string;
  summary: string;
  /** Usage details printed by `<name> --help`. */
  usage?: string;
  run(args: string[]): Promise<void>;
}

/** Thrown for a wrong invocation: printed with the usage, exit code 2. */
export class UsageError extends Error {}

/** `node:util` parseArgs whose complaints (unknown option, missing value) become usage errors. */
export function parseFlags<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
