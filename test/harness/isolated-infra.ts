import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { Client } from 'pg';
import { inject } from 'vitest';
import { BusNames } from '@meter/contracts';
import { connectNats } from '@meter/messaging';
import { quoteIdentifier } from '@meter/persistence';
import { createRedis } from '@meter/redis';
import { migrateAll } from '@meter/cli';

export interface IsolatedInfra {
  /** A database of this test file only, migrated. */
  databaseUrl: string;
  redisUrl: string;
  natsUrl: string;
  /** Prefix of every subject and stream of this test file. */
  busPrefix: string;
  bus: BusNames;
  redisKeyPrefix: string;
  /** Environment for a platform process that should use this isolated infra. */
  env(extra?: Record<string, string>): Record<string, string>;
  cleanup(): Promise<void>;
}

/**
 * Gives one test file its own database, bus prefix and Redis key prefix on
 * the run's servers, and removes them afterwards, so parallel files and
 * repeated runs never see each other's data.
 */
export async function isolatedInfra(options: { migrate?: boolean } = {}): Promise<IsolatedInfra> {
  const infra = inject('infra');
  const id = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const databaseName = `meter_test_${id}`;
  const admin = new Client({ connectionString: infra.databaseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${quoteIdentifier(databaseName)}`);
  } finally {
    await admin.end();
  }
  const databaseUrl = Object.assign(new URL(infra.databaseUrl), { pathname: `/${databaseName}` }).toString();
  if (options.migrate !== false) await migrateAll(databaseUrl);

  const busPrefix = `t${id}`;
  const redisKeyPrefix = `t${id}:`;
  return {
    databaseUrl,
    redisUrl: infra.redisUrl,
    natsUrl: infra.natsUrl,
    busPrefix,
    bus: new BusNames(busPrefix),
    redisKeyPrefix,
    env: (extra = {}) => ({
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      HTTP_HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      REDIS_URL: infra.redisUrl,
      NATS_URL: infra.natsUrl,
      BUS_PREFIX: busPrefix,
      REDIS_KEY_PREFIX: redisKeyPrefix,
      ...extra,
    }),
    cleanup: () => removeAll(infra.databaseUrl, databaseName, infra.natsUrl, busPrefix, infra.redisUrl, redisKeyPrefix),
  };
}

async function removeAll(serverUrl: string, databaseName: string, natsUrl: string, busPrefix: string, redisUrl: string, keyPrefix: string) {
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(databaseName)} WITH (FORCE)`);
  } finally {
    await admin.end();
  }

  const nc = await connectNats(natsUrl, 'test-cleanup');
  try {
    const jsm = await jetstreamManager(nc);
    const streamPrefix = new BusNames(busPrefix).stream('');
    for await (const name of jsm.streams.names()) {
      if (name.startsWith(streamPrefix)) await jsm.streams.delete(name);
    }
  } finally {
    await nc.close();
  }

  const redis = createRedis(redisUrl, { connectionName: 'test-cleanup' });
  try {
    await new Promise<void>((resolve) => redis.once('ready', () => resolve()));
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${keyPrefix}*`, 'COUNT', 500);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
