/**
 * Exact sliding-window log in one atomic script, so any number of gateway
 * processes share one count per key. The clock is Redis's own (`TIME`), so
 * gateways with skewed clocks still agree. Only admitted requests are
 * logged: a client hammering at its limit cannot push its window forward.
 *
 * KEYS[1] the sorted set of admission times (ms); ARGV limit, window ms, a
 * unique member. Returns {allowed 0|1, remaining, ms until a slot frees}.
 * Redis >= 5 replicates scripts by effects, which makes TIME usable here.
 */
export const SLIDING_WINDOW_SCRIPT = `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
local allowed = 0
if count < limit then
  redis.call('ZADD', key, now, now .. ':' .. ARGV[3])
  redis.call('PEXPIRE', key, window)
  count = count + 1
  allowed = 1
end
local reset = 0
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
if oldest[2] then
  reset = tonumber(oldest[2]) + window - now
  if reset < 1 then reset = 1 end
end
return {allowed, limit - count, reset}
`;
