import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/nats-core';
import { Counter } from 'prom-client';
import {
  VAULT_QUEUE_GROUP,
  vaultDeleteReply,
  vaultDeleteRequest,
  vaultListReply,
  vaultListRequest,
  vaultOpenReply,
  vaultOpenRequest,
  vaultSubject,
  vaultUpsertReply,
  vaultUpsertRequest,
  type BusNames,
} from '@meter/contracts';
import { Metrics } from '@meter/http';
import { BUS, NATS, RpcServer } from '@meter/messaging';
import { VaultEntriesService } from './vault-entries.service';

/**
 * The vault's only interface: NATS request/reply in the `vault` queue
 * group (docs/vault.md). Requests and replies are never logged, since they
 * carry secrets.
 */
@Injectable()
export class EntriesHandler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly server: RpcServer;

  constructor(
    @Inject(NATS) nc: NatsConnection,
    @Inject(BUS) private readonly bus: BusNames,
    @Inject(VaultEntriesService) private readonly entries: VaultEntriesService,
    @Inject(Metrics) metrics: Metrics,
  ) {
    const requests = new Counter({
      name: 'meter_vault_requests_total',
      help: 'Vault requests over NATS by operation and outcome (ok or the error code)',
      labelNames: ['operation', 'outcome'] as const,
      registers: [metrics.registry],
    });
    const logger = new Logger('vault-rpc');
    this.server = new RpcServer(nc, {
      queue: VAULT_QUEUE_GROUP,
      service: 'vault',
      log: { error: (m) => logger.error(m), warn: (m) => logger.warn(m) },
      onAnswer: (operation, outcome) => requests.inc({ operation, outcome }),
    });
  }

  onApplicationBootstrap() {
    const subject = (operation: Parameters<typeof vaultSubject>[1]) => vaultSubject(this.bus, operation);
    this.server.serve('upsert', subject('upsert'), vaultUpsertRequest, vaultUpsertReply, (request, deadline) => this.entries.upsert(request, deadline));
    this.server.serve('list', subject('list'), vaultListRequest, vaultListReply, async (request) => ({ entries: await this.entries.list(request) }));
    this.server.serve('delete', subject('delete'), vaultDeleteRequest, vaultDeleteReply, (request, deadline) => this.entries.delete(request, deadline));
    this.server.serve('open', subject('open'), vaultOpenRequest, vaultOpenReply, (request) => this.entries.open(request));
  }

  /** Stop taking requests and finish the ones under way while Postgres and NATS are still open. */
  async beforeApplicationShutdown() {
    await this.server.drain();
  }
}
