import { Inject, Injectable } from '@nestjs/common';
import { addressBlock, APP_CONFIG, type AppConfig } from '@meter/config';
import { sha256Hex } from '@meter/crypto';
import { ProblemException } from '@meter/http';
import { REDIS } from '@meter/redis';
import type Redis from 'ioredis';

// Takes one attempt from a counter in a fixed window that starts with its first attempt; returns
// [count, ttl seconds]. Counted before the password is checked, so concurrent logins cannot all pass
// a check made before any of them is counted. One key per script (Redis Cluster slots).
const TAKE_ATTEMPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('TTL', KEYS[1])}`;

// Gives back one attempt, never below 0 and never on a key that expired meanwhile (it would lose its TTL).
const GIVE_BACK = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then return redis.call('DECR', KEYS[1]) end
return 0`;

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

  /**
   * Counts this attempt as a failure before the password is checked, atomically, and throws 429
   * with Retry-After when it is past either limit; so N concurrent guesses count N, not 0.
   */
  async takeAttempt(email: string, address: string): Promise<void> {
    const window = this.config.LOGIN_THROTTLE_WINDOW_SECONDS;
    const [[emailCount, emailTtl], [addressCount, addressTtl]] = (await this.guarded(() =>
      Promise.all([this.redis.eval(TAKE_ATTEMPT, 1, this.emailKey(email), window), this.redis.eval(TAKE_ATTEMPT, 1, this.addressKey(address), window)]),
    )) as [number, number][];
    const ttls: number[] = [];
    if (emailCount > this.config.LOGIN_MAX_FAILURES_PER_EMAIL) ttls.push(emailTtl);
    if (addressCount > this.config.LOGIN_MAX_FAILURES_PER_ADDRESS) ttls.push(addressTtl);
    if (ttls.length) throw tooManyAttempts(Math.max(1, ...ttls));
  }

  /**
   * The attempt was right: clear the email's count, and give the address back the attempt taken
   * for it (its other failures stay: one right password must not reset a spray).
   */
  async recordSuccess(email: string, address: string): Promise<void> {
    await this.guarded(() => Promise.all([this.redis.del(this.emailKey(email)), this.redis.eval(GIVE_BACK, 1, this.addressKey(address))]));
  }

  // Hashed so the Redis keys do not list who tried to log in.
  private emailKey(email: string) {
    return `login-failures:email:${sha256Hex(email)}`;
  }

  // An IPv6 address counts for its whole /64, which one subscriber usually holds.
  private addressKey(address: string) {
    return `login-failures:addr:${addressBlock(address)}`;
  }

  /** Without Redis, failures could not be counted: refuse logins rather than allow unlimited guessing. */
  private async guarded<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch {
      throw new ProblemException(
        503,
        'throttle_unavailable',
        'logins are paused while the attempt counter is unreachable; retry shortly',
        {},
        {
          'Retry-After': '5',
        },
      );
    }
  }
}

function tooManyAttempts(seconds: number): ProblemException {
  return new ProblemException(429, 'rate_limited', `too many failed logins; retry in ${seconds} s`, {}, { 'Retry-After': String(seconds) });
}
