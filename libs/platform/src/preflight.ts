import { redactUrl, type AppConfig } from '@meter/config';
import { natsIdentity, probeNats } from '@meter/messaging';
import { ensureDatabase, probePostgres } from '@meter/persistence';
import { probeRedis } from '@meter/redis';

export type Dependency = 'postgres' | 'redis' | 'nats';

const LABELS: Record<Dependency, string> = { postgres: 'Postgres', redis: 'Redis', nats: 'NATS' };

export class DependencyUnreachable extends Error {
  constructor(
    readonly dependency: Dependency,
    readonly url: string,
    cause: unknown,
  ) {
    super(`cannot reach ${LABELS[dependency]} at ${redactUrl(url)}: ${reasonOf(cause)}`);
  }
}

function reasonOf(cause: unknown): string {
  if (cause instanceof AggregateError && cause.errors.length > 0) return reasonOf(cause.errors[0]);
  if (cause instanceof Error) return cause.message || cause.name;
  return String(cause);
}

function urlOf(dependency: Dependency, config: AppConfig): string {
  return { postgres: config.DATABASE_URL, redis: config.REDIS_URL, nats: config.NATS_URL }[dependency];
}

const PROBES: Record<Dependency, (url: string, config: AppConfig) => Promise<void>> = {
  // Creating the database first is part of "answers": `DATABASE_URL` is created if absent (README).
  postgres: async (url) => {
    await ensureDatabase(url);
    await probePostgres(url);
  },
  redis: (url) => probeRedis(url),
  nats: (url, config) => probeNats(url, natsIdentity(config)),
};

/** Checks every server a process needs, in parallel; throws naming the first that fails. */
export async function preflight(config: AppConfig, dependencies: Dependency[]): Promise<void> {
  const results = await Promise.allSettled(dependencies.map((d) => PROBES[d](urlOf(d, config), config)));
  const failed = results.findIndex((r) => r.status === 'rejected');
  if (failed >= 0) {
    const dependency = dependencies[failed];
    throw new DependencyUnreachable(dependency, urlOf(dependency, config), (results[failed] as PromiseRejectedResult).reason);
  }
}
