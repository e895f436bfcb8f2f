import { createHmac, randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/nats-core';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { collectorLookupReply, collectorLookupSubject, COLLECTOR_USERNAME, usernameOfPassword, type BusNames } from '@meter/contracts';
import { verifyPassword } from '@meter/crypto';
import { BUS, NATS } from '@meter/messaging';
import { AddressThrottle } from './address-throttle';
import type { Collector, SignIn } from './collector';
import { CollectorMetrics } from '../uplinks/collector-metrics';

const LOOKUP_TIMEOUT_MS = 2000;

interface Trusted {
  collector: Collector;
  until: number;
}

/**
 * Signs collectors in (docs/collectors.md, "How collectors are authenticated"):
 * asks auth for the credential by username over NATS, verifies the password
 * against its Argon2id hash here (the password never leaves this process),
 * and trusts the result for COLLECTORS_CREDENTIAL_CACHE_SECONDS, keyed by an
 * HMAC of the password under a key of this process alone. Revocations from
 * auth's events drop a credential at once (RevocationFeed).
 */
@Injectable()
export class CollectorAuthenticator {
  private readonly logger = new Logger('collector-auth');
  private readonly cacheKey = randomBytes(32);
  private readonly trusted = new Map<string, Trusted>();
  private readonly throttle: AddressThrottle;
  private readonly revokedListeners: ((credentialId: string) => void)[] = [];
  private readonly pending = new Map<string, Promise<SignIn>>();

  constructor(
    @Inject(NATS) private readonly nc: NatsConnection,
    @Inject(BUS) private readonly bus: BusNames,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CollectorMetrics) private readonly metrics: CollectorMetrics,
  ) {
    this.throttle = new AddressThrottle(config.COLLECTORS_AUTH_FAILURES_PER_MINUTE);
  }

  /** `username` undefined: an HTTP bearer password, which names its username itself. */
  async signIn(username: string | undefined, password: string, address: string): Promise<SignIn> {
    const retryAfterSeconds = this.throttle.retryAfterSeconds(address);
    if (retryAfterSeconds > 0) return this.refused({ ok: false, reason: 'throttled', retryAfterSeconds });
    const named = usernameOfPassword(password);
    const user = username ?? named;
    if (user === undefined || named !== user || !COLLECTOR_USERNAME.test(user)) return this.failed(address);
    const key = createHmac('sha256', this.cacheKey).update(password).digest('base64url');
    const hit = this.trusted.get(key);
    if (hit && hit.until > Date.now()) return { ok: true, collector: hit.collector };
    // Many connections of one collector arriving together verify once.
    let attempt = this.pending.get(key);
    if (!attempt) {
      attempt = this.verify(user, password, key);
      this.pending.set(key, attempt);
      void attempt.finally(() => this.pending.delete(key));
    }
    const result = await attempt;
    return result.ok || result.reason !== 'bad_credentials' ? this.refused(result) : this.failed(address);
  }

  /** Drops a credential from the cache and tells the listeners (its connections close). */
  revoke(credentialId: string): void {
    for (const [key, entry] of this.trusted) if (entry.collector.credentialId === credentialId) this.trusted.delete(key);
    for (const listener of this.revokedListeners) listener(credentialId);
  }

  onRevoked(listener: (credentialId: string) => void): void {
    this.revokedListeners.push(listener);
  }

  private async verify(username: string, password: string, key: string): Promise<SignIn> {
    let reply;
    try {
      const message = await this.nc.request(collectorLookupSubject(this.bus), JSON.stringify({ username }), { timeout: LOOKUP_TIMEOUT_MS });
      reply = collectorLookupReply.parse(message.json());
    } catch (error) {
      this.logger.warn(`credential lookup failed: ${error instanceof Error ? error.message : String(error)}`);
      return { ok: false, reason: 'unavailable' };
    }
    if (reply.status === 'unavailable') return { ok: false, reason: 'unavailable' };
    // An unknown username takes as long as a wrong password (verifyPassword's dummy hash).
    const hash = reply.status === 'found' ? reply.credential.password_hash : undefined;
    if (!(await verifyPassword(hash, password)) || reply.status !== 'found') return { ok: false, reason: 'bad_credentials' };
    const { id, org_id, format, mapping } = reply.credential;
    const collector: Collector = { credentialId: id, orgId: org_id, username, format, mapping };
    if (this.config.COLLECTORS_CREDENTIAL_CACHE_SECONDS > 0) {
      this.trusted.set(key, { collector, until: Date.now() + this.config.COLLECTORS_CREDENTIAL_CACHE_SECONDS * 1000 });
    }
    return { ok: true, collector };
  }

  private failed(address: string): SignIn {
    this.throttle.fail(address);
    return this.refused({ ok: false, reason: 'bad_credentials' });
  }

  private refused(result: SignIn): SignIn {
    if (!result.ok) this.metrics.signInsRefused.inc({ reason: result.reason });
    return result;
  }
}
