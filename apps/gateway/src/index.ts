/**
 * The gateway's public face: what the benchmarks and the tests may use.
 * Everything else under apps/gateway/src is private to it.
 */
export { GatewayModule } from './gateway.module';
export { credentialLimitKey } from './rate-limit/limit-keys';
export { credentialStampCheck } from './rate-limit/credential-stamp-check';
export type { RateLimitDecision, StampCheck } from './rate-limit/rate-limit-decision';
export { rateLimitHeaders } from './rate-limit/rate-limit-headers';
export { RedisRateLimiter } from './rate-limit/redis-rate-limiter';
export { WINDOW_MS } from './rate-limit/gateway-rate-limiter';
export { GATEWAY_API, gatewayApiDocument, SVC_HMAC_SCHEME } from './api/gateway-api';
