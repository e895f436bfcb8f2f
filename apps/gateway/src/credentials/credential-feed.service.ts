import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { DeliverPolicy, type ConsumerMessages, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { BusNames, credentialEvent, credentialSecretAad, platformStreams, type CredentialEvent } from '@meter/contracts';
import { associatedData, openText, type KeyRing } from '@meter/crypto';
import { ReadinessRegistry } from '@meter/http';
import { BUS, JETSTREAM, JETSTREAM_MANAGER, ensureStream } from '@meter/messaging';
import type { CredentialRecord } from './credential-record';
import { CREDENTIAL_RING } from './credential-ring';
import { CredentialView } from './credential-view';

const CREDENTIAL_EVENT_TYPES = new Set([
  'credential.created',
  'credential.revoked',
  'credential.cidrs_changed',
  'credential.settings_changed',
  'credential.secret_resealed',
]);

/**
 * Feeds the in-memory credential view from the AUTH_EVENTS stream: an
 * ordered consumer from the first message (no durable state to go stale,
 * recreated by the client after a gap or reconnect), so a request never
 * needs a network call and a revocation lands within milliseconds of its
 * publication. Ready (`credentials` check) once it has applied everything
 * the stream held when the process started.
 */
@Injectable()
export class CredentialFeed implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('credentials');
  private view!: CredentialView;
  private messages?: ConsumerMessages;
  private caughtUpTo = 0;
  private lastSequence = 0;
  private stopped = false;

  constructor(
    @Inject(CREDENTIAL_RING) private readonly ring: KeyRing,
    @Inject(BUS) private readonly bus: BusNames,
    @Inject(JETSTREAM) private readonly js: JetStreamClient,
    @Inject(JETSTREAM_MANAGER) private readonly jsm: JetStreamManager,
    @Inject(ReadinessRegistry) private readonly readiness: ReadinessRegistry,
  ) {}

  find(accessKey: string): CredentialRecord | undefined {
    return this.view?.find(accessKey);
  }

  /** Whether some active credential allows browsers from `origin` (CORS preflights). */
  allowsOrigin(origin: string): boolean {
    return this.view?.allowsOrigin(origin) ?? false;
  }

  get caughtUp(): boolean {
    return this.caughtUpTo >= this.lastSequence;
  }

  async onModuleInit() {
    this.view = new CredentialView(openerFor(this.ring));
    const spec = platformStreams(this.bus).authEvents;
    const stream = spec.name;
    // Idempotent; the stream must exist before it can be read, whichever module initialises first.
    await ensureStream(this.jsm, spec);
    const { state } = await this.jsm.streams.info(stream);
    this.lastSequence = state.messages === 0 ? 0 : state.last_seq;
    this.readiness.register({
      name: 'credentials',
      check: async () => {
        if (!this.caughtUp) throw new Error(`loading credential events (${this.caughtUpTo} of ${this.lastSequence})`);
      },
    });
    const consumer = await this.js.consumers.get(stream, { deliver_policy: DeliverPolicy.All });
    this.messages = await consumer.consume();
    void this.run(this.messages);
  }

  private async run(messages: ConsumerMessages) {
    try {
      for await (const message of messages) {
        this.handle(message.data, message.seq, message.subject);
        this.caughtUpTo = Math.max(this.caughtUpTo, message.seq);
      }
    } catch (error) {
      if (!this.stopped) this.logger.error(`credential feed stopped: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private handle(data: Uint8Array, sequence: number, subject: string) {
    let json: unknown;
    try {
      json = JSON.parse(new TextDecoder().decode(data));
    } catch {
      this.logger.error(`auth event #${sequence} on ${subject} is not JSON; skipped`);
      return;
    }
    const type = (json as { type?: unknown })?.type;
    if (typeof type !== 'string' || !CREDENTIAL_EVENT_TYPES.has(type)) return;
    const parsed = credentialEvent.safeParse(json);
    if (!parsed.success) {
      this.logger.error(`auth event #${sequence} (${type}) does not match its schema; skipped: ${parsed.error.issues[0]?.message ?? ''}`);
      return;
    }
    this.fold(parsed.data, `auth event #${sequence}`);
  }

  /**
   * Folds a credential's events that came another way (auth's answer to a
   * lookup) into the view; by version, like the stream's, so whichever
   * arrives second changes nothing.
   */
  apply(events: readonly CredentialEvent[]): void {
    for (const event of events) this.fold(event, 'looked-up event');
  }

  private fold(event: CredentialEvent, source: string) {
    const outcome = this.view.apply(event);
    if (outcome === 'secret-unreadable' || outcome === 'unknown-credential') {
      // Ids only: never the sealed or opened secret.
      this.logger.error(`${source} (${event.type}) for credential ${event.payload.credential_id}: ${outcome}`);
    }
  }

  async onApplicationShutdown() {
    this.stopped = true;
    await this.messages?.close().catch(() => undefined);
  }
}

function openerFor(ring: KeyRing) {
  return (sealed: string, orgId: string, credentialId: string) => openText(ring, sealed, associatedData(credentialSecretAad(orgId, credentialId)));
}
