import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { JetStreamClient } from '@nats-io/jetstream';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import type { BusNames } from '@meter/contracts';
import { Metrics, ReadinessRegistry } from '@meter/http';
import { BUS, JETSTREAM } from '@meter/messaging';
import { DatabaseOutage } from '@meter/persistence';
import { Counter, Gauge } from 'prom-client';
import { DataSource } from 'typeorm';
import { jetStreamPublisher } from './jetstream-publisher';
import { OutboxRelay } from './outbox-relay';

/** An event older than this still waiting for the bus makes /readyz report the outbox degraded. */
const STALE_AFTER_SECONDS = 30;

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
    @Inject(Metrics) metrics: Metrics,
    @Inject(ReadinessRegistry) private readonly readiness: ReadinessRegistry,
    @Inject(DatabaseOutage) outage: DatabaseOutage,
  ) {
    const published = new Counter({ name: 'auth_outbox_published_total', help: 'Auth events published to JetStream', registers: [metrics.registry] });
    const failures = new Counter({
      name: 'auth_outbox_publish_failures_total',
      help: 'Relay passes that stopped on a failed publish (retried)',
      registers: [metrics.registry],
    });
    const oldest = this.oldestPendingSeconds.bind(this);
    new Gauge({
      name: 'auth_outbox_oldest_pending_seconds',
      help: 'Age of the oldest auth event not yet acknowledged by JetStream (0 when none)',
      registers: [metrics.registry],
      async collect() {
        this.set(await oldest().catch(() => 0));
      },
    });
    this.relay = new OutboxRelay(dataSource, jetStreamPublisher(js, bus), {
      databaseUrl: config.DATABASE_URL,
      pollMs: config.OUTBOX_POLL_MS,
      log: {
        warn: (fields, message) => this.logger.warn(`${message} ${JSON.stringify(fields)}`),
        info: (_fields, message) => this.logger.log(message),
      },
      outage,
      onPublished: (count) => published.inc(count),
      onFailure: () => failures.inc(),
    });
  }

  async onApplicationBootstrap() {
    this.readiness.register({
      name: 'outbox',
      whenDown: 'degraded',
      // Serving goes on while the bus is away (events wait in the table), so this degrades rather than fails.
      check: async () => ((await this.oldestPendingSeconds()) > STALE_AFTER_SECONDS ? 'degraded' : undefined),
    });
    await this.relay.start();
  }

  /** Before NATS drains, so an in-flight publish finishes or stays pending for the next start. */
  async beforeApplicationShutdown() {
    await this.relay.stop();
  }

  nudge() {
    this.relay.nudge();
  }

  private oldestPendingSeconds(): Promise<number> {
    return this.relay.oldestPendingSeconds();
  }
}
