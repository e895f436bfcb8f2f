import { Inject, Injectable } from '@nestjs/common';
import { addressBlock, APP_CONFIG, type AppConfig } from '@meter/config';
import { sha256Hex } from '@meter/crypto';
import { ProblemException } from '@meter/http';
import { REDIS } from '@meter/redis';
import type Redis from 'ioredis';

/** How long an address where an admin logged in stays known for that email (it then skips the per-email delay). */
export const KNOWN_ADDRESS_SECONDS = 30 * 24 * 3600;

// Per source address, across emails: takes one attempt from a counter in a fixed window that starts
// with its first attempt; returns [count, ttl seconds]. Every attempt counts, refused ones too.
const TAKE_ADDRESS_ATTEMPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('TTL', KEYS[1])}`;

// Per email (KEYS[1]: hash of failures and next_at, ms), per (email, address) (KEYS[2]: counter) and
// the known-address mark (KEYS[3]); one hash tag, so one Redis Cluster slot. Returns {1, 0} when the
// password may be checked, the attempt then being counted as a failure until it is given back, or
// {0, seconds to wait}. A refused attempt counts nothing, so a flood of them does not push the next
// slot further away. ARGV: window s, pair limit, failures per email at full speed, longest delay ms.
// After the free failures, each admitted attempt sets the next slot 1 s, 2 s, 4 s ... (at most the
// longest delay) ahead, for every address but a known one: guesses at one email are spaced, however
// many addresses send them, and concurrent ones are admitted one per slot.
const TAKE_EMAIL_ATTEMPT = `
local window = tonumber(ARGV[1])
local pairCount = tonumber(redis.call('GET', KEYS[2]) or '0')
if pairCount >= tonumber(ARGV[2]) then return {0, math.max(1, redis.call('TTL', KEYS[2]))} end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local known = redis.call('EXISTS', KEYS[3]) == 1
local nextAt = tonumber(redis.call('HGET', KEYS[1], 'next_at') or '0')
if not known and now < nextAt then return {0, math.ceil((nextAt - now) / 1000)} end
local failures = redis.call('HINCRBY', KEYS[1], 'failures', 1)
local free = tonumber(ARGV[3])
if failures >= free then
  nextAt = math.max(nextAt, now + math.floor(math.min(1000 * 2 ^ (failures - free), tonumber(ARGV[4]))))
  redis.call('HSET', KEYS[1], 'next_at', nextAt)
end
redis.call('PEXPIRE', KEYS[1], math.max(window * 1000, nextAt - now))
if redis.call('INCR', KEYS[2]) == 1 then redis.call('EXPIRE', KEYS[2], window) end
return {1, 0}`;

// The password was right: the email gets its attempt back (its delay stays: one right password must
// not reset a guessing campaign), the (email, address) pair is cleared and the address becomes known.
const EMAIL_SUCCESS = `
if tonumber(redis.call('HGET', KEYS[1], 'failures') or '0') > 0 then redis.call('HINCRBY', KEYS[1], 'failures', -1) end
redis.call('DEL', KEYS[2])
redis.call('SET', KEYS[3], '1', 'EX', ARGV[1])
return 1`;

// The attempt was never judged (the password could not be checked): it gives back what it counted.
const EMAIL_NOT_JUDGED = `
if tonumber(redis.call('HGET', KEYS[1], 'failures') or '0') > 0 then redis.call('HINCRBY', KEYS[1], 'failures', -1) end
local pair = tonumber(redis.call('GET', KEYS[2]) or '0')
if pair > 0 then redis.call('DECR', KEYS[2]) end
return 1`;

// Gives back one attempt, never below 0 and never on a key that expired meanwhile (it would lose its TTL).
const GIVE_BACK = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then return redis.call('DECR', KEYS[1]) end
return 0`;

/**
 * Failed logins, counted in Redis so every auth replica sees the same
 * counts (docs/management-api.md, "Login throttling"):
 * - per (email, address) and per address: hard limits; past one, 429
 *   until the window ends, even for the right password, since that
 *   address is the one guessing;
 * - per email, from any address: a delay, not a block; past the free
 *   failures, attempts are admitted one per slot, the slots doubling
 *   apart up to LOGIN_MAX_DELAY_SECONDS, and an address where the admin
 *   logged in before is not delayed. Guessing at one email stays bounded
 *   (about one guess per longest delay), and its admin is never locked out
 *   by someone who only knows the email.
 * Attempts are counted before the password is checked, atomically, so
 * concurrent guesses cannot all pass a check made before any is counted.
 */
@Injectable()
export class LoginThrottle {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Counts this attempt as a failure before the password is checked; throws 429 with Retry-After when it may not be checked now. */
  async takeAttempt(email: string, address: string): Promise<void> {
    const window = this.config.LOGIN_THROTTLE_WINDOW_SECONDS;
    const [addressCount, addressTtl] = (await this.guarded(() => this.redis.eval(TAKE_ADDRESS_ATTEMPT, 1, this.addressKey(address), window))) as [
      number,
      number,
    ];
    if (addressCount > this.config.LOGIN_MAX_FAILURES_PER_ADDRESS) throw tooManyAttempts(Math.max(1, addressTtl));
    const [admitted, wait] = (await this.guarded(() =>
      this.redis.eval(
        TAKE_EMAIL_ATTEMPT,
        3,
        ...this.emailKeys(email, address),
        window,
        this.config.LOGIN_MAX_FAILURES_PER_EMAIL_AND_ADDRESS,
        this.config.LOGIN_MAX_FAILURES_PER_EMAIL,
        this.config.LOGIN_MAX_DELAY_SECONDS * 1000,
      ),
    )) as [number, number];
    if (admitted !== 1) throw tooManyAttempts(Math.max(1, wait));
  }

  /** The password was right: give back what takeAttempt counted, and remember the address for this email. */
  async recordSuccess(email: string, address: string): Promise<void> {
    await this.guarded(() =>
      Promise.all([
        this.redis.eval(EMAIL_SUCCESS, 3, ...this.emailKeys(email, address), KNOWN_ADDRESS_SECONDS),
        this.redis.eval(GIVE_BACK, 1, this.addressKey(address)),
      ]),
    );
  }

  /**
   * The password could not be checked (the database was away): the attempt is no failure and counts
   * nothing, so logins refused during an outage never lock the admin out afterwards. Best effort.
   */
  async releaseAttempt(email: string, address: string): Promise<void> {
    const [emailKey, pairKey] = this.emailKeys(email, address);
    await Promise.all([this.redis.eval(EMAIL_NOT_JUDGED, 2, emailKey, pairKey), this.redis.eval(GIVE_BACK, 1, this.addressKey(address))]).catch(
      () => undefined,
    );
  }

  // The email is hashed so the Redis keys do not list who tried to log in; its keys share one hash tag.
  private emailKeys(email: string, address: string): [string, string, string] {
    const tag = `login:{${sha256Hex(email)}}`;
    const block = addressBlock(address);
    return [`${tag}:email`, `${tag}:pair:${block}`, `${tag}:known:${block}`];
  }

  // An IPv6 address counts for its whole /64, which one subscriber usually holds.
  private addressKey(address: string) {
    return `login:addr:${addressBlock(address)}`;
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
        { 'Retry-After': '5' },
      );
    }
  }
}

function tooManyAttempts(seconds: number): ProblemException {
  return new ProblemException(429, 'rate_limited', `too many failed logins; retry in ${seconds} s`, {}, { 'Retry-After': String(seconds) });
}
