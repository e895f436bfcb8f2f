import type { TestProject } from 'vitest/node';
import { loadConfig } from '@meter/config';
import { probeNats } from '@meter/messaging';
import { probePostgres } from '@meter/persistence';
import { probeRedis } from '@meter/redis';
import type { InfraUrls } from './infra-urls';

type Stop = () => Promise<unknown>;

/**
 * Finds Postgres, Redis and NATS for the run: the env URLs (or the
 * contract's defaults) when they answer, otherwise containers started with
 * testcontainers when a Docker engine is there. Fails naming what is missing.
 */
export default async function setup(project: TestProject) {
  const config = loadConfig({ ...process.env, NODE_ENV: 'test' });
  const serverUrl = new URL(config.DATABASE_URL);
  serverUrl.pathname = '/postgres';
  const stops: Stop[] = [];
  const infra: InfraUrls = {
    databaseUrl: serverUrl.toString(),
    redisUrl: config.REDIS_URL,
    natsUrl: config.NATS_URL,
    source: { postgres: 'env', redis: 'env', nats: 'env' },
  };

  if (!(await answers(() => probePostgres(infra.databaseUrl)))) {
    const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
    const container = await startOrExplain('Postgres', infra.databaseUrl, () => new PostgreSqlContainer('postgres:16-alpine').start());
    stops.push(() => container.stop());
    infra.databaseUrl = container.getConnectionUri().replace(/\/[^/]*$/, '/postgres');
    infra.source.postgres = 'testcontainers';
  }
  if (!(await answers(() => probeRedis(infra.redisUrl)))) {
    const { RedisContainer } = await import('@testcontainers/redis');
    const container = await startOrExplain('Redis', infra.redisUrl, () => new RedisContainer('redis:7-alpine').start());
    stops.push(() => container.stop());
    infra.redisUrl = container.getConnectionUrl();
    infra.source.redis = 'testcontainers';
  }
  if (!(await answers(() => probeNats(infra.natsUrl)))) {
    const { GenericContainer, Wait } = await import('testcontainers');
    const container = await startOrExplain('NATS', infra.natsUrl, () =>
      new GenericContainer('nats:2.11-alpine')
        .withCommand(['-js'])
        .withExposedPorts(4222)
        .withWaitStrategy(Wait.forLogMessage(/Server is ready/))
        .start(),
    );
    stops.push(() => container.stop());
    infra.natsUrl = `nats://${container.getHost()}:${container.getMappedPort(4222)}`;
    infra.source.nats = 'testcontainers';
  }

  project.provide('infra', infra);
  return async () => {
    await Promise.allSettled(stops.map((stop) => stop()));
  };
}

async function answers(probe: () => Promise<void>): Promise<boolean> {
  try {
    await probe();
    return true;
  } catch {
    return false;
  }
}

async function startOrExplain<T>(name: string, url: string, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    throw new Error(
      `${name} does not answer at ${url} and no container could be started (${error instanceof Error ? error.message : String(error)}). ` +
        `Start ${name} locally (see DEVELOPERS.md / README) or run Docker.`,
    );
  }
}
