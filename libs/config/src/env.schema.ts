import { z } from 'zod';
import { parseKeyRing, type KeyRing } from '@meter/crypto';
import { parseCidr, type CidrRange } from './cidr';

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

/** HTTP_REQUEST_TIMEOUT_MS unless set; also what in-process test apps use. */
export const DEFAULT_HTTP_REQUEST_TIMEOUT_MS = 20_000;

const positiveInt = (fallback: number, max: number) => z.coerce.number().int().min(1).max(max).default(fallback);

/** Comma-separated addresses and CIDR ranges, parsed once into ranges; a bad entry is named. */
const cidrList = z
  .string()
  .default('')
  .transform((value, ctx): CidrRange[] => {
    const ranges: CidrRange[] = [];
    for (const entry of value.split(',').map((text) => text.trim())) {
      if (entry === '') continue;
      const range = parseCidr(entry);
      if (range) ranges.push(range);
      else ctx.addIssue({ code: 'custom', message: `entry ${JSON.stringify(entry)} is not an IP address or CIDR range (dotted quads or IPv6)` });
    }
    return ranges;
  });

/** `kid:base64key,...` (docs/keys.md), parsed once; messages name the entry and key id, never key text. */
const keyRing = z
  .string()
  .optional()
  .transform((value, ctx): KeyRing | undefined => {
    if (value === undefined || value.trim() === '') return undefined;
    try {
      return parseKeyRing(value);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: `is invalid: ${(error as Error).message}` });
      return z.NEVER;
    }
  });

/**
 * Every environment variable the platform reads, with the local defaults of
 * the README's configuration table. One schema: it validates at start and
 * types the code.
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
    /** Byte limit of the READINGS stream per replica, 0 for none; when full, NATS_READINGS_DISCARD applies (docs/operations.md "JetStream limits"). */
    NATS_READINGS_MAX_BYTES: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
    /** `new`: a full READINGS refuses publishes (collectors answer 503 / hold the PUBACK, nothing accepted is lost); `old`: it drops its oldest messages, read or not. */
    NATS_READINGS_DISCARD: z.enum(['new', 'old']).default('new'),
    /** Byte limit of the DEAD_LETTERS stream per replica, 0 for none; when full its oldest dead letters go. */
    NATS_DEAD_LETTERS_MAX_BYTES: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
    HTTP_HOST: z.string().min(1).default('0.0.0.0'),
    /** Every HTTP process: a request (headers and body) must have arrived within this, or it gets 408 and the connection closes. */
    HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120_000).default(DEFAULT_HTTP_REQUEST_TIMEOUT_MS),
    GATEWAY_PORT: port(8080),
    AUTH_PORT: port(8081),
    VAULT_PORT: port(8082),
    INGEST_PORT: port(8083),
    INTEGRATIONS_PORT: port(8084),
    /** Collectors: HTTP (probes, metrics, the uplink routes). */
    COLLECTORS_PORT: port(8085),
    /** Collectors: plain MQTT (1884 on a machine whose 1883 a Mosquitto holds; 1883 in deploy/ and compose). */
    COLLECTORS_MQTT_PORT: port(1884),
    /** Collectors: MQTT over TLS, served when both files are set (deploy/: 8883 with the meter-collectors-tls Secret). */
    COLLECTORS_MQTTS_PORT: port(8883),
    COLLECTORS_MQTT_TLS_CERT_FILE: z.string().min(1).optional(),
    COLLECTORS_MQTT_TLS_KEY_FILE: z.string().min(1).optional(),
    /** Collectors: failed sign-ins (MQTT CONNECT or HTTP) a source address may make per minute before the next are refused unchecked. */
    COLLECTORS_AUTH_FAILURES_PER_MINUTE: positiveInt(10, 100_000),
    /** Collectors: how long a verified collector password is trusted without asking auth again (a revocation drops it at once). */
    COLLECTORS_CREDENTIAL_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
    /** Collectors: how long a publish waits for JetStream's acknowledgement before HTTP answers 503 (MQTT keeps the PUBACK back and tries again). */
    COLLECTORS_PUBLISH_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120_000).default(10_000),
    RATE_LIMIT_PER_MINUTE: positiveInt(60, 1_000_000),
    /** Gateway: failed authentications a source address may cause per minute before it gets 429. */
    AUTH_FAILURE_LIMIT_PER_MINUTE: positiveInt(120, 1_000_000),
    /** Gateway: how often it reports each credential's last accepted request to auth (`last_used_at`). */
    GATEWAY_USAGE_REPORT_SECONDS: positiveInt(10, 3600),
    /** Gateway: keep device pages and records in memory, dropped on the read model's change notifications (docs/read-model.md). */
    GATEWAY_DEVICE_CACHE: z.enum(['on', 'off']).default('on'),
    SESSION_TTL_SECONDS: positiveInt(3600, 7 * 24 * 3600),
    /**
     * Login throttling (docs/management-api.md): failed logins per (email, source address) and per
     * source address are hard limits within LOGIN_THROTTLE_WINDOW_SECONDS; per email, from any
     * address, LOGIN_MAX_FAILURES_PER_EMAIL are answered at full speed and each further attempt
     * waits a delay that doubles from 1 s up to LOGIN_MAX_DELAY_SECONDS.
     */
    LOGIN_MAX_FAILURES_PER_EMAIL_AND_ADDRESS: positiveInt(5, 1000),
    LOGIN_MAX_FAILURES_PER_ADDRESS: positiveInt(20, 100_000),
    LOGIN_MAX_FAILURES_PER_EMAIL: positiveInt(10, 1000),
    LOGIN_MAX_DELAY_SECONDS: positiveInt(60, 3600),
    LOGIN_THROTTLE_WINDOW_SECONDS: positiveInt(900, 24 * 3600),
    /** How often the auth outbox relay looks for unpublished events when no notification arrived. */
    OUTBOX_POLL_MS: positiveInt(1000, 60_000),
    /** Proxies whose X-Forwarded-For is believed (clientAddressOf in libs/http). */
    TRUSTED_PROXIES: cidrList,
    DATA_DIR: z.string().min(1).default('.data'),
    // Each process loads only the ring it uses (auth and gateway: credentials;
    // vault: root); with NODE_ENV=production a missing ring stops that process.
    CREDENTIAL_KEYRING: keyRing,
    VAULT_ROOT_KEYRING: keyRing,
    /** Integrations: seals webhook endpoint secrets (docs/alerts-and-webhooks.md); required in production. */
    WEBHOOK_SECRET_KEYRING: keyRing,
    /**
     * Integrations: webhook URLs may be http or point at loopback and private addresses (resolved names included).
     * Unset: allowed outside production, refused in production.
     */
    WEBHOOK_ALLOW_PRIVATE_URLS: z
      .enum(['true', 'false'])
      .optional()
      .transform((value) => (value === undefined ? undefined : value === 'true')),
    /** Integrations: seconds to wait after each failed delivery attempt, comma-separated; after the last, the delivery fails. */
    WEBHOOK_RETRY_SCHEDULE_SECONDS: z
      .string()
      .default('5,300,1800,7200,18000,36000,36000')
      .transform((value, ctx): number[] => {
        const parts = value.split(',').map((part) => part.trim());
        if (parts.length > 20 || parts.some((part) => !/^\d{1,6}$/.test(part))) {
          ctx.addIssue({ code: 'custom', message: 'must be up to 20 whole numbers of seconds, comma-separated (e.g. 5,300,1800)' });
          return z.NEVER;
        }
        return parts.map(Number);
      }),
    /** Integrations: webhook deliveries sent at the same time by one process. */
    WEBHOOK_DELIVERY_CONCURRENCY: positiveInt(16, 256),
    /** Integrations: of those, at most this many to one endpoint, so a slow or dead receiver cannot take them all. */
    WEBHOOK_ENDPOINT_CONCURRENCY: positiveInt(8, 256),
    /** Integrations: and at most this many to one organization's endpoints together. */
    WEBHOOK_ORG_CONCURRENCY: positiveInt(12, 256),
    /**
     * Integrations: days a delivered or failed webhook delivery is kept after its last attempt, and an event no delivery
     * refers to after it arrived (docs/alerts-and-webhooks.md); pending deliveries are kept until they finish.
     */
    WEBHOOK_DELIVERY_RETENTION_DAYS: positiveInt(30, 3650),
    /** How long auth waits for the vault over NATS before answering 503 vault_unavailable. */
    VAULT_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(3000),
    /** How long auth waits for the integrations service over NATS before answering 503 integrations_unavailable (an activation writes a check object to the destination). */
    INTEGRATIONS_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(15_000),
    /** Messages the ingest service writes in one transaction at most. */
    INGEST_BATCH_MESSAGES: positiveInt(200, 10_000),
    /** Batches one ingest process writes at the same time (each in its own transaction). */
    INGEST_CONCURRENCY: positiveInt(2, 16),
    /** Unacknowledged messages the durable readings consumer hands out, over all ingest replicas. */
    INGEST_MAX_ACK_PENDING: positiveInt(4000, 100_000),
    /**
     * Tests: pins the gateway's clock (ISO 8601, read as ms since the epoch): the "now" of the
     * consumption routes and of the signature timestamp check; and ingest's clock for the alert
     * rules (NO_COMMUNICATION). Refused in production.
     */
    TEST_NOW: z.iso
      .datetime({ offset: true })
      .transform((text) => Date.parse(text))
      .optional(),
    /** Integrations: day exports one process runs at the same time (docs/exports.md). */
    EXPORT_CONCURRENCY: positiveInt(2, 32),
    /** Integrations: the longest a day export may take, its lease renewed or not: past it, it is taken for stuck and tried again. */
    EXPORT_DAY_TIMEOUT_SECONDS: z.coerce
      .number()
      .int()
      .min(5)
      .max(6 * 3600)
      .default(1800),
    /** Integrations: a day export's lease, renewed while its process works: a day whose process died is retried about this long after. */
    EXPORT_DAY_LEASE_SECONDS: z.coerce.number().int().min(5).max(3600).default(20),
    /** Integrations: the first retry of a failed day export waits about this long, each next one twice as long (3 attempts). */
    EXPORT_RETRY_DELAY_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
    /** Integrations: how often each replica looks for integrations whose schedule time has come. */
    EXPORT_SCHEDULE_TICK_SECONDS: positiveInt(30, 3600),
    /** Integrations: how often an idle export worker asks the job queue for work. */
    EXPORT_POLL_SECONDS: z.coerce.number().min(0.5).max(60).default(2),
    /** Integrations: the Cloud Storage API endpoint (a private endpoint or a test double); unset: Google's. */
    GCS_API_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
    /** Ingest: `off` stores readings without judging the reading alert rules (LEAK, BURST, NO_FLOW); alarms and silences still apply. For measuring their cost. */
    INGEST_ALERT_RULES: z.enum(['on', 'off']).default('on'),
    /** Ingest: how often the clock's NO_COMMUNICATION check runs (one replica at a time); at most a minute. */
    ALERT_SILENCE_CHECK_SECONDS: positiveInt(30, 60),
    /** Seconds the readings consumer waits for an ack before it redelivers a message; well above one batch. */
    INGEST_ACK_WAIT_SECONDS: positiveInt(60, 3600),
  })
  .superRefine((env, ctx) => {
    if ((env.COLLECTORS_MQTT_TLS_CERT_FILE === undefined) !== (env.COLLECTORS_MQTT_TLS_KEY_FILE === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['COLLECTORS_MQTT_TLS_KEY_FILE'], message: 'must be set together with COLLECTORS_MQTT_TLS_CERT_FILE' });
    }
    if (env.NODE_ENV === 'production' && env.TEST_NOW !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['TEST_NOW'], message: 'must not be set when NODE_ENV=production' });
    }
  });

export type AppConfig = z.infer<typeof envSchema>;

/** Whether webhooks may target http and private addresses: WEBHOOK_ALLOW_PRIVATE_URLS, else everywhere but production. */
export function webhookPrivateUrlsAllowed(config: Pick<AppConfig, 'NODE_ENV' | 'WEBHOOK_ALLOW_PRIVATE_URLS'>): boolean {
  return config.WEBHOOK_ALLOW_PRIVATE_URLS ?? config.NODE_ENV !== 'production';
}
