import type { Bindings, ChildLoggerOptions, Logger } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * Fastify's per-request logger (`childLoggerFactory`), made only when the
 * request logs something. pino's `child()` serialises and redacts its
 * bindings at once, which is a measurable share of a fast request that
 * never logs (the gateway at LOG_LEVEL=warn). What it logs is unchanged.
 * A class, so a request allocates one small object and no closures.
 */
class LazyChildLogger {
  private made?: Logger;

  constructor(
    private readonly parent: Logger,
    private readonly childBindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  fatal(...args: unknown[]) {
    this.write('fatal', args);
  }
  error(...args: unknown[]) {
    this.write('error', args);
  }
  warn(...args: unknown[]) {
    this.write('warn', args);
  }
  info(...args: unknown[]) {
    this.write('info', args);
  }
  debug(...args: unknown[]) {
    this.write('debug', args);
  }
  trace(...args: unknown[]) {
    this.write('trace', args);
  }
  silent() {}

  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    return this.real().child(bindings, options);
  }
  bindings(): Bindings {
    return this.real().bindings();
  }
  isLevelEnabled(level: string): boolean {
    return (this.made ?? this.parent).isLevelEnabled(level);
  }
  get level(): string {
    return (this.made ?? this.parent).level;
  }
  set level(level: string) {
    this.real().level = level;
  }

  private real(): Logger {
    return (this.made ??= this.parent.child(this.childBindings, this.options));
  }

  private write(level: Level, args: unknown[]) {
    // Below the level nothing is written, so nothing needs the child.
    if (!(this.made ?? this.parent).isLevelEnabled(level)) return;
    (this.real()[level] as (...a: unknown[]) => void)(...args);
  }
}

export function lazyChildLogger(parent: Logger, bindings: Bindings, options: ChildLoggerOptions): Logger {
  return new LazyChildLogger(parent, bindings, options) as unknown as Logger;
}
