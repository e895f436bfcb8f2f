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
 * KEYS[1] the sorted set of admission times (ms); ARGV limit, window ms, n, a
 * member prefix unique to the call. Returns {admitted, count before the call,
 * ms until a slot frees (0 while the window is empty)}.
 * Redis >= 5 replicates scripts by effects, which makes TIME usable here.
 */
export const SLIDING_WINDOW_SCRIPT = `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local n = tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local before = redis.call('ZCARD', key)
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
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
if oldest[2] then
  reset = tonumber(oldest[2]) + window - now
  if reset < 1 then reset = 1 end
end
return {admitted, before, reset}
`;
