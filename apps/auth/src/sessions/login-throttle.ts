import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { sha256Hex } from '@meter/crypto';
import { ProblemException } from '@meter/http';
import { REDIS } from '@meter/redis';
import type Redis from 'ioredis';

// Counts a failure in a fixed window that starts with the first failure; returns [count, ttl seconds].
const RECORD_FAILURE = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('TTL', KEYS[1])
return {count, ttl}`;

/**
 * Failed logins are counted per email and per source address in Redis,
 * so every auth replica sees the same counts. Past a limit, logins for
 * that email or from that address get 429 until the window ends, whether
 * or not the password is right.
 */
@Injectable()
export class LoginThrottle {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Throws 429 with Retry-After while either counter is over its limit. */
  async check(email: string, address: string): Promise<void> {
    const [emailCount, addressCount] = await this.guarded(() => this.redis.mget(this.emailKey(email), this.addressKey(address)));
    const blocked: string[] = [];
    if (Number(emailCount ?? 0) >= this.config.LOGIN_MAX_FAILURES_PER_EMAIL) blocked.push(this.emailKey(email));
    if (Number(addressCount ?? 0) >= this.config.LOGIN_MAX_FAILURES_PER_ADDRESS) blocked.push(this.addressKey(address));
    if (!blocked.length) return;
    const ttls = await this.guarded(() => Promise.all(blocked.map((key) => this.redis.ttl(key))));
    throw tooManyAttempts(Math.max(1, ...ttls));
  }

  async recordFailure(email: string, address: string): Promise<void> {
    const window = this.config.LOGIN_THROTTLE_WINDOW_SECONDS;
    await this.guarded(() =>
      Promise.all([
        this.redis.eval(RECORD_FAILURE, 1, this.emailKey(email), window),
        this.redis.eval(RECORD_FAILURE, 1, this.addressKey(address), window),
      ]),
    );
  }

  /** A successful login clears the email's count (not the address's: one right password must not reset a spray). */
  async recordSuccess(email: string): Promise<void> {
    await this.guarded(() => this.redis.del(this.emailKey(email)));
  }

  // Hashed so the Redis keys do not list who tried to log in.
  private emailKey(email: string) {
    return `login-failures:email:${sha256Hex(email)}`;
  }

  private addressKey(address: string) {
    return `login-failures:addr:${address}`;
  }

  /** Without Redis, failures could not be counted: refuse logins rather than allow unlimited guessing. */
  private async guarded<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch {
      throw new ProblemException(503, 'throttle_unavailable', 'logins are paused while the attempt counter is unreachable; retry shortly', {}, {
        'Retry-After': '5',
      });
    }
  }
}

function tooManyAttempts(seconds: number): ProblemException {
  return new ProblemException(429, 'rate_limited', `too many failed logins; retry in ${seconds} s`, {}, { 'Retry-After': String(seconds) });
}
