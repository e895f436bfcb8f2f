import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type Redis from 'ioredis';
import { Gauge } from 'prom-client';
import { Metrics, ReadinessRegistry } from '@meter/http';
import { REDIS } from '@meter/redis';
import { MemoryRateLimiter } from './memory-rate-limiter';
import type { RateLimitDecision, StampCheck } from './rate-limit-decision';
import { RedisRateLimiter } from './redis-rate-limiter';

export const WINDOW_MS = 60_000;

/**
 * Redis's exact shared window while Redis answers; this process's own
 * window while it does not, so the API keeps answering (approximate: each
 * process counts alone). A failed Redis call falls back for that request;
 * the next request tries Redis again as soon as the client is reconnected.
 */
@Injectable()
export class GatewayRateLimiter implements OnModuleInit {
  private readonly logger = new Logger('rate-limit');
  private readonly shared: RedisRateLimiter;
  private readonly local = new MemoryRateLimiter();
  private degraded = false;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(Metrics) metrics: Metrics,
    @Inject(ReadinessRegistry) private readonly readiness: ReadinessRegistry,
  ) {
    this.shared = new RedisRateLimiter(redis);
    const usingLocal = () => this.usingLocal();
    // Read at scrape time, so it turns 1 as soon as Redis drops, requests or not.
    new Gauge({
      name: 'meter_gateway_rate_limiter_degraded',
      help: '1 while the gateway limits with its in-process window because Redis is unavailable',
      registers: [metrics.registry],
      collect() {
        this.set(usingLocal() ? 1 : 0);
      },
    });
  }

  onModuleInit() {
    // A reconnect ends the outage at once, not at the next request.
    this.redis.on('ready', () => this.setDegraded(false));
    this.readiness.describe(() => ({ limiter: this.usingLocal() ? 'in-process' : 'redis' }));
  }

  get isDegraded(): boolean {
    return this.usingLocal();
  }

  /**
   * With `stamp`, the shared window also compares the credential's stamp (no
   * extra round trip); the in-process fallback cannot, and relies on the view.
   */
  async consume(key: string, limit: number, stamp?: StampCheck): Promise<RateLimitDecision> {
    if (this.redis.status === 'ready') {
      try {
        const decision = await this.shared.consume(key, limit, WINDOW_MS, stamp);
        this.setDegraded(false);
        return decision;
      } catch (error) {
        this.setDegraded(true, error);
      }
    } else {
      this.setDegraded(true);
    }
    return this.local.consume(key, limit, WINDOW_MS);
  }

  private usingLocal(): boolean {
    return this.degraded || this.redis.status !== 'ready';
  }

  private setDegraded(degraded: boolean, error?: unknown) {
    if (degraded === this.degraded) return;
    this.degraded = degraded;
    if (degraded) {
      this.logger.warn(`Redis unavailable; limiting in-process (approximate) until it returns${error instanceof Error ? `: ${error.message}` : ''}`);
    } else {
      this.logger.log('Redis back; limiting with the shared window again');
    }
  }
}
