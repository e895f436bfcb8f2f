import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { JetStreamClient } from '@nats-io/jetstream';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import type { BusNames } from '@meter/contracts';
import { BUS, JETSTREAM } from '@meter/messaging';
import { DataSource } from 'typeorm';
import { jetStreamPublisher } from './jetstream-publisher';
import { OutboxRelay } from './outbox-relay';

/** Runs the outbox relay for the life of the auth process. */
@Injectable()
export class OutboxRelayService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('outbox');
  readonly relay: OutboxRelay;

  constructor(
    @Inject(DataSource) dataSource: DataSource,
    @Inject(JETSTREAM) js: JetStreamClient,
    @Inject(BUS) bus: BusNames,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.relay = new OutboxRelay(dataSource, jetStreamPublisher(js, bus), {
      databaseUrl: config.DATABASE_URL,
      pollMs: config.OUTBOX_POLL_MS,
      log: { warn: (fields, message) => this.logger.warn(`${message} ${JSON.stringify(fields)}`) },
    });
  }

  async onApplicationBootstrap() {
    await this.relay.start();
  }

  /** Before NATS drains, so an in-flight publish finishes or stays pending for the next start. */
  async beforeApplicationShutdown() {
    await this.relay.stop();
  }

  nudge() {
    this.relay.nudge();
  }
}
