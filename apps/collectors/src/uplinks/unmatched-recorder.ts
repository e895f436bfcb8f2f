import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DatabaseOutage } from '@meter/persistence';
import { recordUnmatchedUplinks, type Sighting } from './unmatched-uplinks';

const FLUSH_MS = 1000;
const MAX_PENDING = 50_000;

/**
 * Keeps the unmatched radio ids of each collector credential: sightings are
 * summed in memory and written once a second in one statement, so a flood of
 * uplinks for unknown meters costs one upsert per second, not one per uplink.
 */
@Injectable()
export class UnmatchedRecorder implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('unmatched-uplinks');
  private pending = new Map<string, Sighting>();
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<void>;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(DatabaseOutage) private readonly outage: DatabaseOutage,
  ) {}

  onModuleInit() {
    this.timer = setInterval(() => void this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  async onApplicationShutdown() {
    clearInterval(this.timer);
    await this.flush();
  }

  record(orgId: string, credentialId: string, kind: 'dev_eui' | 'wmbus_id', radioId: string, at = new Date()): void {
    const key = `${orgId}\u0000${credentialId}\u0000${kind}\u0000${radioId}`;
    const seen = this.pending.get(key);
    if (seen) {
      seen.last = at;
      seen.count += 1;
    } else if (this.pending.size < MAX_PENDING) {
      this.pending.set(key, { orgId, credentialId, kind, radioId, first: at, last: at, count: 1 });
    }
  }

  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async write() {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    try {
      await recordUnmatchedUplinks(this.dataSource, batch);
    } catch (error) {
      // Kept for the next attempt: the list is for people, a second late is fine.
      for (const s of batch) {
        const key = `${s.orgId}\u0000${s.credentialId}\u0000${s.kind}\u0000${s.radioId}`;
        const newer = this.pending.get(key);
        this.pending.set(key, newer ? { ...s, last: newer.last, count: s.count + newer.count } : s);
      }
      if (!this.outage.report(error)) this.logger.warn(`could not record unmatched uplinks: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
