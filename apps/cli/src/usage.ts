import type { Command } from 'commander';

/** The CLI's exit codes, one rule for every command. */
export const EXIT = {
  ok: 0,
  /** the work or the call failed: a 4xx/5xx answer, a server that is down, a refused change */
  failed: 1,
  /** a wrong invocation: unknown command or option, a missing or bad value, a bad environment variable */
  usage: 2,
} as const;

/** Thrown for a wrong invocation: printed with a pointer to the command's help, exit code 2. */
export class UsageError extends Error {}

/**
 * A command's action: its `UsageError`s are reported by commander like its own
 * complaints (message, then the help hint), so every usage problem looks and exits alike.
 */
export function action<A extends unknown[]>(run: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await run(...args);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      // commander passes the command itself last
      const command = args[args.length - 1] as Command;
      command.error(`error: ${error.message}`, { exitCode: EXIT.usage, code: 'meter.usage' });
    }
  };
}

/** An integer option within [min, max], or a usage error naming it. */
export function integerOption(raw: string | undefined, name: string, min: number, max: number): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw ?? '') || n < min || n > max) throw new UsageError(`${name} must be an integer from ${min} to ${max}`);
  return n;
}
