import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/nats-core';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { CREDENTIAL_USAGE_MAX_ITEMS, credentialUsageSubject, type BusNames, type CredentialUsageReport } from '@meter/contracts';
import { BUS, NATS } from '@meter/messaging';

/** The reports of what was used since the last one: the latest time per credential, in chunks of at most `max`. */
export function usageReports(used: ReadonlyMap<string, { orgId: string; at: number }>, max = CREDENTIAL_USAGE_MAX_ITEMS): CredentialUsageReport[] {
  const items = [...used].map(([credentialId, u]) => ({ credential_id: credentialId, org_id: u.orgId, last_used_at: new Date(u.at).toISOString() }));
  const reports: CredentialUsageReport[] = [];
  for (let i = 0; i < items.length; i += max) reports.push({ usage: items.slice(i, i + max) });
  return reports;
}

/**
 * Remembers the last accepted request of each credential (a map write per
 * request) and reports them to auth every GATEWAY_USAGE_REPORT_SECONDS, and
 * once more when the process stops. Auth keeps `last_used_at` from these.
 */
@Injectable()
export class CredentialUsage implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('credential-usage');
  private used = new Map<string, { orgId: string; at: number }>();
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(NATS) private readonly nc: NatsConnection,
    @Inject(BUS) private readonly bus: BusNames,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  record(credentialId: string, orgId: string, at: number): void {
    // Updated in place: the map outlives many collections of the young generation, and a new object per request would be garbage it holds.
    const used = this.used.get(credentialId);
    if (used) used.at = at;
    else this.used.set(credentialId, { orgId, at });
  }

  onModuleInit() {
    this.timer = setInterval(() => this.report(), this.config.GATEWAY_USAGE_REPORT_SECONDS * 1000);
    this.timer.unref();
  }

  beforeApplicationShutdown() {
    clearInterval(this.timer);
    this.report();
  }

  /** Sends what was used since the last report. Lost if NATS is down: usage is telemetry, requests are unaffected. */
  report(): void {
    if (this.used.size === 0) return;
    const used = this.used;
    this.used = new Map();
    try {
      for (const report of usageReports(used)) this.nc.publish(credentialUsageSubject(this.bus), JSON.stringify(report));
    } catch (error) {
      this.logger.warn(`credential usage not reported: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
