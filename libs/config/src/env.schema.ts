import { z } from 'zod';
import { parseCidr } from './cidr';

const port = (fallback: number) => z.coerce.number().int().min(1).max(65535).default(fallback);

const url = (protocols: string[], fallback: string) =>
  z
    .string()
    .default(fallback)
    .refine(
      (value) => {
        try {
          return protocols.includes(new URL(value).protocol);
        } catch {
          return false;
        }
      },
      `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
    );

const positiveInt = (fallback: number, max: number) => z.coerce.number().int().min(1).max(max).default(fallback);

const cidrList = z
  .string()
  .default('')
  .transform((value) =>
    value
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry.length > 0),
  )
  .refine((entries) => entries.every((entry) => parseCidr(entry) !== undefined), {
    message: 'must be a comma-separated list of IP addresses or CIDR ranges',
  });

/**
 * Every environment variable the platform reads, with the local defaults of
 * contract section 1. One schema: it validates at start and types the code.
 */
export const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DATABASE_URL: url(['postgres:', 'postgresql:'], 'postgres://postgres@127.0.0.1:5432/meter'),
    DB_POOL_SIZE: positiveInt(10, 200),
    REDIS_URL: url(['redis:', 'rediss:'], 'redis://127.0.0.1:6379'),
    REDIS_KEY_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9_:-]{0,64}$/, 'must be up to 64 characters of [A-Za-z0-9_:-]')
      .default('meter:'),
    NATS_URL: url(['nats:', 'tls:', 'ws:', 'wss:'], 'nats://127.0.0.1:4222'),
    // Set where the NATS server enforces per-user permissions (deploy/base/nats/vault-permissions.conf).
    NATS_USER: z.string().min(1).optional(),
    NATS_PASSWORD: z.string().min(1).optional(),
    NATS_INBOX_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/, 'must be letters, digits, _ or -')
      .optional(),
    BUS_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9_-]{0,32}$/, 'must be up to 32 characters of [A-Za-z0-9_-]')
      .default(''),
    /** JetStream replicas of the streams the services create (and bring to this count at start); 3 on a three-server cluster. */
    NATS_STREAM_REPLICAS: positiveInt(1, 5),
    HTTP_HOST: z.string().min(1).default('0.0.0.0'),
    GATEWAY_PORT: port(8080),
    AUTH_PORT: port(8081),
    VAULT_PORT: port(8082),
    INGEST_PORT: port(8083),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120_000).default(10_000),
    RATE_LIMIT_PER_MINUTE: positiveInt(60, 1_000_000),
    /** Gateway: failed authentications a source address may cause per minute before it gets 429. */
    AUTH_FAILURE_LIMIT_PER_MINUTE: positiveInt(120, 1_000_000),
    /** Gateway: how often it reports each credential's last accepted request to auth (`last_used_at`). */
    GATEWAY_USAGE_REPORT_SECONDS: positiveInt(10, 3600),
    /** Gateway: keep device pages and records in memory, dropped on the read model's change notifications (docs/read-model.md). */
    GATEWAY_DEVICE_CACHE: z.enum(['on', 'off']).default('on'),
    /** Gateway, NODE_ENV=test only: shifts the clock the timestamp check uses, to replay fixed signing vectors. */
    GATEWAY_TEST_CLOCK_OFFSET_SECONDS: z.coerce.number().int().default(0),
    SESSION_TTL_SECONDS: positiveInt(3600, 7 * 24 * 3600),
    /** Failed logins allowed per email, and per source address, within LOGIN_THROTTLE_WINDOW_SECONDS. */
    LOGIN_MAX_FAILURES_PER_EMAIL: positiveInt(5, 1000),
    LOGIN_MAX_FAILURES_PER_ADDRESS: positiveInt(20, 100_000),
    LOGIN_THROTTLE_WINDOW_SECONDS: positiveInt(900, 24 * 3600),
    /** How often the auth outbox relay looks for unpublished events when no notification arrived. */
    OUTBOX_POLL_MS: positiveInt(1000, 60_000),
    TRUSTED_PROXIES: cidrList,
    DATA_DIR: z.string().min(1).default('.data'),
    // Each process loads only the ring it uses (auth and gateway: credentials;
    // vault: root); with NODE_ENV=production a missing ring stops that process.
    CREDENTIAL_KEYRING: z.string().min(1).optional(),
    VAULT_ROOT_KEYRING: z.string().min(1).optional(),
    /** How long auth waits for the vault over NATS before answering 503 vault_unavailable. */
    VAULT_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(3000),
    /** Messages the ingest service writes in one transaction at most. */
    INGEST_BATCH_MESSAGES: positiveInt(200, 10_000),
    /** Batches one ingest process writes at the same time (each in its own transaction). */
    INGEST_CONCURRENCY: positiveInt(2, 16),
    /** Unacknowledged messages the durable readings consumer hands out, over all ingest replicas. */
    INGEST_MAX_ACK_PENDING: positiveInt(4000, 100_000),
    /** Pins the gateway's "now" for consumption routes (tests and demos); refused in production. */
    TEST_NOW: z.iso.datetime({ offset: true }).optional(),
  })
  .superRefine((env, ctx) => {
    if (env.GATEWAY_TEST_CLOCK_OFFSET_SECONDS !== 0 && env.NODE_ENV !== 'test') {
      ctx.addIssue({ code: 'custom', path: ['GATEWAY_TEST_CLOCK_OFFSET_SECONDS'], message: 'may only be set when NODE_ENV=test' });
    }
    if (env.NODE_ENV === 'production' && env.TEST_NOW) {
      ctx.addIssue({ code: 'custom', path: ['TEST_NOW'], message: 'must not be set when NODE_ENV=production' });
    }
  });

export type AppConfig = z.infer<typeof envSchema>;
