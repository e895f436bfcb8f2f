import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { DatabaseOutage, PgListener } from '@meter/persistence';
import { DEVICES_CHANGED_CHANNEL, findDeviceByRadioId, type DeviceOfRadioId } from '@meter/read-model';
import type { DeviceKey } from '../decoders/uplink';

export type KnownDevice = DeviceOfRadioId;

type RadioKey = Exclude<DeviceKey, { kind: 'device_id' }>;

const TTL_MS = 60_000;
const MAX_ORGS = 10_000;

/**
 * Finds a device of an organization by its radio id (`external_ids`, unique
 * per organization) in the read model, with a cache that the read model's
 * device notifications empty per organization (so a device registered for an
 * unmatched id matches its next uplink); off while LISTEN is not in place.
 */
@Injectable()
export class DeviceDirectory implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('device-directory');
  private readonly cache = new Map<string, Map<string, { device: KnownDevice | null; until: number }>>();
  private listening = false;
  private listener?: PgListener;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DatabaseOutage) private readonly outage: DatabaseOutage,
  ) {}

  async onModuleInit() {
    this.listener = new PgListener({
      databaseUrl: this.config.DATABASE_URL,
      channel: DEVICES_CHANGED_CHANNEL,
      applicationName: 'collectors-devices',
      onNotification: (orgId) => (orgId ? this.cache.delete(orgId) : this.cache.clear()),
      onListening: () => (this.listening = true),
      onLost: (why, error) => {
        this.listening = false;
        this.cache.clear();
        if (!this.outage.report(error)) this.logger.warn(`device cache off until LISTEN is back: ${why}`);
      },
    });
    await this.listener.start();
  }

  async onApplicationShutdown() {
    this.listening = false;
    await this.listener?.stop();
  }

  /** The device that carries this radio id in the organization, or null. Throws when Postgres cannot answer. */
  async find(orgId: string, key: RadioKey): Promise<KnownDevice | null> {
    const id = key.kind === 'dev_eui' ? key.devEui : key.wmbusId;
    const cacheKey = `${key.kind}:${id}`;
    const cached = this.cache.get(orgId)?.get(cacheKey);
    if (cached && cached.until > Date.now()) return cached.device;
    const device = await findDeviceByRadioId(this.dataSource, orgId, { kind: key.kind, id });
    if (this.listening) {
      if (this.cache.size >= MAX_ORGS) this.cache.clear();
      let forOrg = this.cache.get(orgId);
      if (!forOrg) this.cache.set(orgId, (forOrg = new Map()));
      forOrg.set(cacheKey, { device, until: Date.now() + TTL_MS });
    }
    return device;
  }
}
