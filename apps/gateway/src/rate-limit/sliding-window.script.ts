/**
 * Exact sliding-window log in one atomic script, so any number of gateway
 * processes share one count per key. The clock is Redis's own (`TIME`), so
 * gateways with skewed clocks still agree. Only admitted requests are
 * logged: a client hammering at its limit cannot push its window forward.
 *
 * One call decides `n` requests of one key that a gateway received together
 * (one event-loop turn, see RedisRateLimiter): in order, as many as the
 * window has room for are admitted, exactly as `n` calls one after the other
 * at the same instant would decide.
 *
 * Admissions that left the window are counted in O(log N) (ZCOUNT), never
 * by removing them first, and each call removes at most max(256, 2n) of them,
 * oldest first: with a raised limit, a burst of many thousand admissions
 * leaving the window together would otherwise be deleted in one call, holding
 * Redis (and every gateway waiting on it) for tens of milliseconds. Steady
 * traffic removes more than it adds, so the set still shrinks to the window;
 * a set with nothing left in the window is dropped whole by UNLINK, which
 * frees a large one off Redis's main thread.
 *
 * With a credential's budget it first compares the credential's stamp
 * (`credentialStampKey`: written by auth before it answers a revocation or an
 * allow-list change) with the version the gateway checked the requests
 * against; if the stamp is newer it admits nothing and returns {-1, stamp
 * version, 1 if revoked else 0}, so no gateway serves a change's old state
 * once the change was answered, at no extra round trip.
 *
 * KEYS[1] the sorted set of admission times (ms); KEYS[2] the stamp (KEYS[1]
 * again when there is none to check); ARGV limit, window ms, n, a member
 * prefix unique to the call, the checked version ('' for none). Returns
 * {admitted, count before the call, ms until a slot frees (0 while the
 * window is empty)}.
 * Redis >= 5 replicates scripts by effects, which makes TIME usable here.
 */
export const SLIDING_WINDOW_SCRIPT = `
if ARGV[5] ~= '' then
  local stamp = redis.call('HMGET', KEYS[2], 'v', 'r')
  local version = tonumber(stamp[1])
  if version and version > tonumber(ARGV[5]) then
    return {-1, version, stamp[2] == '1' and 1 or 0}
  end
end
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local n = tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local edge = now - window
local stale = redis.call('ZCOUNT', key, '-inf', edge)
local before = redis.call('ZCARD', key) - stale
if stale > 0 then
  if before == 0 then
    redis.call('UNLINK', key)
  else
    redis.call('ZREMRANGEBYRANK', key, 0, math.min(stale, math.max(256, 2 * n)) - 1)
  end
end
local admitted = math.max(0, math.min(n, limit - before))
local done = 0
while done < admitted do
  local upto = math.min(admitted, done + 500)
  local args = {}
  for i = done + 1, upto do
    args[#args + 1] = now
    args[#args + 1] = now .. ':' .. ARGV[4] .. ':' .. i
  end
  redis.call('ZADD', key, unpack(args))
  done = upto
end
if admitted > 0 then redis.call('PEXPIRE', key, window) end
local reset = 0
local oldest = redis.call('ZRANGEBYSCORE', key, '(' .. edge, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
if oldest[2] then
  reset = tonumber(oldest[2]) + window - now
  if reset < 1 then reset = 1 end
end
return {admitted, before, reset}
`;
