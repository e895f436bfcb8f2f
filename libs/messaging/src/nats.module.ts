import { Global, Inject, Injectable, Logger, Module, type DynamicModule, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { BusNames, type ConsumerSpec, type StreamSpec } from '@meter/contracts';
import { ReadinessRegistry, type WhenDown } from '@meter/http';
import { connectNats, natsIdentity } from './connect-nats';
import { ensureConsumer } from './ensure-consumer';
import { ensureStream } from './ensure-stream';
import { configuredStreamLimits } from './stream-limits';

export const NATS = Symbol('NATS');
export const JETSTREAM = Symbol('JETSTREAM');
export const JETSTREAM_MANAGER = Symbol('JETSTREAM_MANAGER');
export const BUS = Symbol('BUS');
const TOPOLOGY = Symbol('TOPOLOGY');
const NATS_WHEN_DOWN = Symbol('NATS_WHEN_DOWN');

export interface Topology {
  streams: StreamSpec[];
  consumers: ConsumerSpec[];
}

@Injectable()
class NatsLifecycle implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('nats');

  constructor(
    @Inject(NATS) private readonly nc: NatsConnection,
    @Inject(JETSTREAM_MANAGER) private readonly jsm: JetStreamManager,
    @Inject(TOPOLOGY) private readonly topology: Topology,
    @Inject(ReadinessRegistry) private readonly readiness: ReadinessRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(NATS_WHEN_DOWN) private readonly whenDown: WhenDown,
    @Inject(BUS) private readonly bus: BusNames,
  ) {}

  async onModuleInit() {
    const limits = configuredStreamLimits(this.config, this.bus);
    for (const stream of this.topology.streams) {
      await ensureStream(this.jsm, stream, { replicas: this.config.NATS_STREAM_REPLICAS, limits: limits.get(stream.name) });
    }
    for (const consumer of this.topology.consumers) await ensureConsumer(this.jsm, consumer);
    this.readiness.register({
      name: 'nats',
      whenDown: this.whenDown,
      check: async () => {
        if (this.nc.isClosed()) throw new Error('connection closed');
        await this.nc.flush();
      },
    });
    void this.watchStatus();
  }

  private async watchStatus() {
    for await (const status of this.nc.status()) {
      if (status.type === 'disconnect' || status.type === 'reconnect') this.logger.warn(`nats ${status.type}`);
    }
  }

  async onApplicationShutdown() {
    // Drain lets in-flight handlers finish and flushes pending publishes.
    if (!this.nc.isClosed()) await this.nc.drain().catch(() => this.nc.close());
  }
}

/**
 * The NATS connection, JetStream clients and the bus names of this process;
 * `whenDown` says whether the process can serve without NATS (default: it cannot).
 */
@Global()
@Module({})
export class NatsModule {
  static forService(service: string, topology: (bus: BusNames) => Topology, options: { whenDown?: WhenDown } = {}): DynamicModule {
    return {
      module: NatsModule,
      providers: [
        { provide: BUS, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new BusNames(config.BUS_PREFIX) },
        { provide: TOPOLOGY, inject: [BUS], useFactory: topology },
        { provide: NATS, inject: [APP_CONFIG], useFactory: (config: AppConfig) => connectNats(config.NATS_URL, service, natsIdentity(config)) },
        { provide: JETSTREAM, inject: [NATS], useFactory: (nc: NatsConnection): JetStreamClient => jetstream(nc) },
        { provide: JETSTREAM_MANAGER, inject: [NATS], useFactory: (nc: NatsConnection) => jetstreamManager(nc) },
        { provide: NATS_WHEN_DOWN, useValue: options.whenDown ?? 'not-ready' },
        NatsLifecycle,
      ],
      exports: [NATS, JETSTREAM, JETSTREAM_MANAGER, BUS],
    };
  }
}
