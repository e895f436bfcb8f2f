import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { DeliverPolicy, type ConsumerMessages, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { collectorCredentialRevoked, COLLECTOR_REVOKED_EVENT_SUBJECT, platformStreams, type BusNames } from '@meter/contracts';
import { BUS, JETSTREAM, JETSTREAM_MANAGER } from '@meter/messaging';
import { CollectorAuthenticator } from './collector-authenticator';

/**
 * Follows auth's `collector_credential.revoked` events from the moment it
 * starts following (an ordered consumer; its cache starts empty, so older
 * revocations do not matter) and drops each credential at once: its
 * cached sign-in goes and its MQTT connections close.
 */
@Injectable()
export class RevocationFeed implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('collector-revocations');
  private messages?: ConsumerMessages;
  private stopped = false;

  constructor(
    @Inject(BUS) private readonly bus: BusNames,
    @Inject(JETSTREAM) private readonly js: JetStreamClient,
    @Inject(JETSTREAM_MANAGER) private readonly jsm: JetStreamManager,
    @Inject(CollectorAuthenticator) private readonly authenticator: CollectorAuthenticator,
  ) {}

  onModuleInit() {
    // In the background: AUTH_EVENTS is auth's stream and may not exist yet (then no credential exists either).
    void this.follow();
  }

  private async follow() {
    const stream = platformStreams(this.bus).authEvents.name;
    while (!this.stopped) {
      try {
        await this.jsm.streams.info(stream);
        const consumer = await this.js.consumers.get(stream, {
          deliver_policy: DeliverPolicy.New,
          // One subject as a string: filter_subject, which NATS 2.9 (here and in CI) understands.
          filter_subjects: this.bus.subject(COLLECTOR_REVOKED_EVENT_SUBJECT),
        });
        this.messages = await consumer.consume();
        return void this.run(this.messages);
      } catch (error) {
        this.logger.warn(`waiting for ${stream}: ${error instanceof Error ? error.message : String(error)}`);
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
    }
  }

  private async run(messages: ConsumerMessages) {
    try {
      for await (const message of messages) {
        const parsed = collectorCredentialRevoked.safeParse(safeJson(message.data));
        if (!parsed.success) {
          this.logger.error(`auth event #${message.seq} is not a collector credential revocation; skipped`);
          continue;
        }
        this.authenticator.revoke(parsed.data.payload.credential_id);
      }
    } catch (error) {
      if (!this.stopped) this.logger.error(`revocation feed stopped: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  async onApplicationShutdown() {
    this.stopped = true;
    await this.messages?.close().catch(() => undefined);
  }
}

function safeJson(data: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(data));
  } catch {
    return undefined;
  }
}
