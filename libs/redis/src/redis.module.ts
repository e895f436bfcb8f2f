import { Global, Inject, Injectable, Logger, Module, type DynamicModule, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { ReadinessRegistry, type WhenDown } from '@meter/http';
import type Redis from 'ioredis';
import { createRedis } from './create-redis';

export const REDIS = Symbol('REDIS');
const REDIS_WHEN_DOWN = Symbol('REDIS_WHEN_DOWN');

@Injectable()
class RedisLifecycle implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(ReadinessRegistry) private readonly readiness: ReadinessRegistry,
    @Inject(REDIS_WHEN_DOWN) private readonly whenDown: WhenDown,
  ) {}

  onModuleInit() {
    this.readiness.register({
      name: 'redis',
      whenDown: this.whenDown,
      check: async () => {
        if (this.redis.status !== 'ready') throw new Error(`connection ${this.redis.status}`);
        await this.redis.ping();
      },
    });
  }

  async onApplicationShutdown() {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/**
 * The process's Redis connection (token `REDIS`), checked by `/readyz`;
 * `whenDown` says whether the process can serve without it (default: it cannot).
 */
@Global()
@Module({})
export class RedisModule {
  static forService(service: string, options: { whenDown?: WhenDown } = {}): DynamicModule {
    const logger = new Logger('redis');
    let lastReport = 0;
    return {
      module: RedisModule,
      providers: [
        {
          provide: REDIS,
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig) =>
            createRedis(config.REDIS_URL, {
              connectionName: service,
              keyPrefix: config.REDIS_KEY_PREFIX,
              onError: (error) => {
                // ioredis reports every reconnect attempt; one line per 10 s is enough.
                if (Date.now() - lastReport < 10_000) return;
                lastReport = Date.now();
                logger.warn(`redis unavailable: ${error.message}`);
              },
            }),
        },
        { provide: REDIS_WHEN_DOWN, useValue: options.whenDown ?? 'not-ready' },
        RedisLifecycle,
      ],
      exports: [REDIS],
    };
  }
}
