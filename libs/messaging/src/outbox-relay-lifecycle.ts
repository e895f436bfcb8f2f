import type { BeforeApplicationShutdown, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Gauge, type Registry } from 'prom-client';
import type { ReadinessRegistry } from '@meter/http';
import { relayReadiness, type RelayLogger } from './outbox-relay';

/** A relay's log lines through the service's Nest logger. */
export function nestRelayLog(logger: Logger): RelayLogger {
  return { warn: (fields, message) => logger.warn(`${message} ${JSON.stringify(fields)}`), info: (_fields, message) => logger.log(message) };
}

/** What the lifecycle needs of a relay (the table relay, or a service's wrapper of it). */
export interface RelayControls {
  start(): Promise<void>;
  stop(): Promise<void>;
  nudge(): void;
  oldestPendingSeconds(): Promise<number>;
}

/**
 * The Nest life of an outbox relay, the same in every service: a readiness
 * check that degrades once an event has waited 30 s for the bus, start at
 * bootstrap, stop before NATS drains (an in-flight publish finishes or stays
 * pending for the next start), and a nudge after each commit that appended
 * events. A service's relay extends it and builds its `relay`.
 */
export abstract class OutboxRelayLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  protected abstract readonly relay: RelayControls;

  protected constructor(
    private readonly readinessName: string,
    private readonly readiness: ReadinessRegistry,
  ) {}

  async onApplicationBootstrap() {
    this.readiness.register(relayReadiness(this.readinessName, this.relay));
    await this.relay.start();
  }

  async beforeApplicationShutdown() {
    await this.relay.stop();
  }

  /** A gauge `name` of the age of the oldest event the bus has not acknowledged (0 when none), read at scrape time. */
  protected exportOldestPending(registry: Registry, name: string, help: string): void {
    const oldest = () => this.relay.oldestPendingSeconds();
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        this.set(await oldest().catch(() => 0));
      },
    });
  }

  /** Publish soon: called after each commit that appended events. */
  nudge(): void {
    this.relay.nudge();
  }
}
