import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { CREDENTIAL_STAMP_TTL_SECONDS, credentialStampKey } from '@meter/contracts';
import { ProblemException } from '@meter/http';
import { REDIS } from '@meter/redis';

/** Seconds to wait before repeating a change whose stamp could not be written. */
const STAMP_RETRY_AFTER_SECONDS = 2;

/**
 * Raises the stamp only: a slower writer of an older version never lowers
 * it, and a revocation stays (revocation is final). KEYS[1] the stamp;
 * ARGV version, revoked (0/1), TTL in seconds.
 */
const RAISE_STAMP_SCRIPT = `
local stamp = redis.call('HMGET', KEYS[1], 'v', 'r')
local version = tonumber(ARGV[1])
local revoked = ARGV[2]
if stamp[2] == '1' then revoked = '1' end
if not stamp[1] or version > tonumber(stamp[1]) then
  redis.call('HSET', KEYS[1], 'v', version, 'r', revoked)
elseif revoked ~= stamp[2] then
  redis.call('HSET', KEYS[1], 'r', revoked)
end
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[3]))
return 1
`;

type WithRaiseStamp = Redis & { meterRaiseCredentialStamp(key: string, version: number, revoked: number, ttl: number): Promise<number> };

/**
 * Writes the credential stamps every gateway checks on each request
 * (`credentialStampKey`, libs/contracts). Called after a revocation or an
 * allow-list change committed and before it is answered, so every gateway
 * refuses the old state from the moment the answer is sent.
 */
@Injectable()
export class CredentialStamps {
  private readonly redis: WithRaiseStamp;

  constructor(@Inject(REDIS) redis: Redis) {
    if (!('meterRaiseCredentialStamp' in redis)) redis.defineCommand('meterRaiseCredentialStamp', { numberOfKeys: 1, lua: RAISE_STAMP_SCRIPT });
    this.redis = redis as WithRaiseStamp;
  }

  /**
   * Throws 503 `credential_sync_unavailable` when Redis cannot take it: the
   * change is committed and reaches the gateways through AUTH_EVENTS within
   * about a second, but it cannot be promised for the next request, so it is
   * not answered as done. Repeating the request writes the stamp again.
   */
  async raise(credentialId: string, version: number, revoked: boolean): Promise<void> {
    try {
      await this.redis.meterRaiseCredentialStamp(credentialStampKey(credentialId), version, revoked ? 1 : 0, CREDENTIAL_STAMP_TTL_SECONDS);
    } catch {
      throw credentialSyncUnavailable();
    }
  }
}

/** The change is committed, but not yet promised to every gateway for the next request. */
export function credentialSyncUnavailable(): ProblemException {
  return new ProblemException(
    503,
    'credential_sync_unavailable',
    'the change is saved and reaches every gateway within about a second, but could not be confirmed on them now (Redis unavailable); repeat the request to confirm it',
    { retry_after: STAMP_RETRY_AFTER_SECONDS },
    { 'retry-after': String(STAMP_RETRY_AFTER_SECONDS) },
  );
}
