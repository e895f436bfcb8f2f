import { Inject, Injectable, Logger } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/nats-core';
import { Counter } from 'prom-client';
import { credentialLookupReply, credentialLookupSubject, type BusNames } from '@meter/contracts';
import { Metrics } from '@meter/http';
import { BUS, NATS } from '@meter/messaging';
import { CredentialFeed } from './credential-feed.service';
import { ExpiringKeys } from './expiring-keys';

/** `found`: folded into the view; `unknown`: auth has no such key; `failed`: no answer (auth away, slow, or too many asks at once). */
type LookupOutcome = 'found' | 'unknown' | 'failed';

/** How long a request waits for auth's answer at most. */
export const LOOKUP_TIMEOUT_MS = 500;
/** How long an access key auth did not know (or did not answer for) is not asked about again. */
const UNKNOWN_KEY_TTL_MS = 2000;
/** Unknown keys remembered at most; the oldest go first. */
const UNKNOWN_KEY_CAPACITY = 10_000;
/** Lookups one gateway has out at a time; beyond that an unknown key is refused without asking. */
const MAX_LOOKUPS_IN_FLIGHT = 64;

/**
 * Asks auth (`auth.credentials.lookup`) for a credential the view does not
 * hold yet, or holds an older version of, and folds the answer into the
 * view. One ask per key at a time, a deadline on each, a short memory of
 * keys auth did not know and a cap on asks in flight, so a flood of unknown
 * keys costs auth little. A failed ask changes nothing: the request is then
 * answered from the view, as without this path.
 */
@Injectable()
export class CredentialLookup {
  private readonly logger = new Logger('credential-lookup');
  private readonly unknown = new ExpiringKeys(UNKNOWN_KEY_TTL_MS, UNKNOWN_KEY_CAPACITY);
  private readonly inFlight = new Map<string, Promise<LookupOutcome>>();
  private readonly outcomes: Counter<'outcome'>;

  constructor(
    @Inject(NATS) private readonly nc: NatsConnection,
    @Inject(BUS) private readonly bus: BusNames,
    @Inject(CredentialFeed) private readonly feed: CredentialFeed,
    @Inject(Metrics) metrics: Metrics,
  ) {
    this.outcomes = new Counter({
      name: 'meter_gateway_credential_lookups_total',
      help: 'Credentials asked of auth because the view did not hold them or held an older version, by outcome (skipped: remembered as unknown, or too many asks out)',
      labelNames: ['outcome'] as const,
      registers: [metrics.registry],
    });
  }

  /** For an access key the view does not hold: asks auth, unless it did not know the key moments ago. */
  fetchUnknown(accessKey: string): Promise<LookupOutcome> {
    if (this.unknown.has(accessKey, Date.now())) {
      this.outcomes.inc({ outcome: 'skipped' });
      return Promise.resolve('unknown');
    }
    return this.ask(accessKey);
  }

  /** For a credential that changed after the version the view holds: asks auth for its current state. */
  refresh(accessKey: string): Promise<LookupOutcome> {
    return this.ask(accessKey);
  }

  private ask(accessKey: string): Promise<LookupOutcome> {
    const pending = this.inFlight.get(accessKey);
    if (pending) return pending;
    if (this.inFlight.size >= MAX_LOOKUPS_IN_FLIGHT) {
      this.outcomes.inc({ outcome: 'skipped' });
      return Promise.resolve('failed');
    }
    const asking = this.request(accessKey)
      .then((outcome) => {
        if (outcome === 'found') this.unknown.delete(accessKey);
        else this.unknown.add(accessKey, Date.now());
        this.outcomes.inc({ outcome });
        return outcome;
      })
      .finally(() => this.inFlight.delete(accessKey));
    this.inFlight.set(accessKey, asking);
    return asking;
  }

  private async request(accessKey: string): Promise<LookupOutcome> {
    let data: unknown;
    try {
      const answer = await this.nc.request(credentialLookupSubject(this.bus), JSON.stringify({ access_key: accessKey }), { timeout: LOOKUP_TIMEOUT_MS });
      data = answer.json();
    } catch {
      // No auth replica listening, no answer in time, or NATS away: answered from the view.
      return 'failed';
    }
    const reply = credentialLookupReply.safeParse(data);
    if (!reply.success) {
      this.logger.error(`credential lookup answer does not match its schema: ${reply.error.issues[0]?.message ?? ''}`);
      return 'failed';
    }
    if (reply.data.status !== 'found') return reply.data.status === 'unknown' ? 'unknown' : 'failed';
    this.feed.apply(reply.data.events.filter((event) => event.payload.access_key === accessKey));
    return 'found';
  }
}
