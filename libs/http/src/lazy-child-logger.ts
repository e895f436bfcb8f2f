import type { Bindings, ChildLoggerOptions, Logger } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * Fastify's per-request logger (`childLoggerFactory`), made only when the
 * request logs something. pino's `child()` serialises and redacts its
 * bindings at once, which is a measurable share of a fast request that
 * never logs (the gateway at LOG_LEVEL=warn). What it logs is unchanged.
 */
export function lazyChildLogger(parent: Logger, bindings: Bindings, options: ChildLoggerOptions): Logger {
  let child: Logger | undefined;
  const real = () => (child ??= parent.child(bindings, options));
  const forward =
    (level: Level) =>
    (...args: unknown[]) => {
      // Below the level nothing is written, so nothing needs the child.
      if (!(child ?? parent).isLevelEnabled(level)) return;
      (real()[level] as (...a: unknown[]) => void)(...args);
    };
  const lazy = {
    fatal: forward('fatal'),
    error: forward('error'),
    warn: forward('warn'),
    info: forward('info'),
    debug: forward('debug'),
    trace: forward('trace'),
    silent: () => undefined,
    child: (more: Bindings, moreOptions?: ChildLoggerOptions) => real().child(more, moreOptions),
    isLevelEnabled: (level: string) => (child ?? parent).isLevelEnabled(level),
    get level() {
      return (child ?? parent).level;
    },
    set level(level: string) {
      real().level = level;
    },
    bindings: () => real().bindings(),
  };
  return lazy as unknown as Logger;
}
