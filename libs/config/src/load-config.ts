import { envSchema, type AppConfig } from './env.schema';

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    readonly reason: string,
  ) {
    super(`invalid configuration: ${variable} ${reason}`);
  }
}

/** Empty strings count as unset, so `FOO=` falls back to the default. */
function withoutEmpty(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''));
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = envSchema.safeParse(withoutEmpty(env));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const variable = String(issue.path[0] ?? 'environment');
  const reason = issue.code === 'invalid_type' || issue.code === 'invalid_value' ? describe(issue) : issue.message;
  throw new ConfigError(variable, reason);
}

function describe(issue: { code: string; message: string; values?: readonly unknown[]; expected?: unknown }): string {
  if (issue.code === 'invalid_value' && issue.values) return `must be one of ${issue.values.join(', ')}`;
  if (issue.code === 'invalid_type') return `must be ${String(issue.expected)}`;
  return issue.message;
}

/** For process entry points: one line naming the variable, then exit. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): AppConfig {
  return exitOnConfigError(() => loadConfig(env));
}

/** Runs a configuration check; a `ConfigError` it throws becomes one line on stderr and exit 78 (EX_CONFIG). */
export function exitOnConfigError<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
}
