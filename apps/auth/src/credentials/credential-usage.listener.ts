import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { NatsConnection, Subscription } from '@nats-io/nats-core';
import { DataSource } from 'typeorm';
import { CREDENTIAL_USAGE_QUEUE_GROUP, credentialUsageReport, credentialUsageSubject, type BusNames, type CredentialUsageReport } from '@meter/contracts';
import { BUS, NATS } from '@meter/messaging';
import { DatabaseOutage } from '@meter/persistence';
import { subscribeQueue } from '../common/queue-subscription';
import { recordCredentialUse } from './credential-store';

/**
 * Keeps `last_used_at` of credentials from the gateways' usage reports. It
 * only moves forward, only within the credential's own organization, and is
 * not an event: usage is telemetry, not a change an admin made.
 */
@Injectable()
export class CredentialUsageListener implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('credential-usage');
  private subscription?: Subscription;

  constructor(
    @Inject(NATS) private readonly nc: NatsConnection,
    @Inject(BUS) private readonly bus: BusNames,
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(DatabaseOutage) private readonly outage: DatabaseOutage,
  ) {}

  onModuleInit() {
    this.subscription = subscribeQueue({
      nc: this.nc,
      subject: credentialUsageSubject(this.bus),
      queue: CREDENTIAL_USAGE_QUEUE_GROUP,
      logger: this.logger,
      outage: this.outage,
      handle: (data) => this.apply(data),
    });
  }

  async onApplicationShutdown() {
    await this.subscription?.drain().catch(() => undefined);
  }

  /** Applies one report; a malformed one is logged and dropped (it names no secret). */
  async apply(data: Uint8Array): Promise<number> {
    let report: CredentialUsageReport;
    try {
      const parsed = credentialUsageReport.safeParse(JSON.parse(new TextDecoder().decode(data)));
      if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `${i.path.join('.') || 'report'}: ${i.message}`).join('; '));
      report = parsed.data;
    } catch (error) {
      this.logger.warn(`malformed credential usage report dropped: ${error instanceof Error ? error.message : String(error)}`);
      return 0;
    }
    return recordCredentialUse(this.dataSource.manager, report.usage);
  }
}
