import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { DatabaseOutage, PgListener } from '@meter/persistence';
import { DEVICES_CHANGED_CHANNEL } from '@meter/read-model';
import { DeviceCache } from './device-cache';

/**
 * Keeps the device cache true: it is on only while LISTEN on the read
 * model's devices channel is in place, and each notification drops the
 * organization it names. A lost connection turns the cache off (every
 * request reads Postgres) until LISTEN is back.
 */
@Injectable()
export class DeviceChanges implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('device-cache');
  private listener?: PgListener;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DeviceCache) private readonly cache: DeviceCache,
    @Inject(DatabaseOutage) private readonly outage: DatabaseOutage,
  ) {}

  async onModuleInit() {
    if (this.config.GATEWAY_DEVICE_CACHE === 'off') return;
    this.listener = new PgListener({
      databaseUrl: this.config.DATABASE_URL,
      channel: DEVICES_CHANGED_CHANNEL,
      applicationName: 'gateway-device-changes',
      onNotification: (orgId) => this.cache.invalidate(orgId ?? ''),
      onListening: () => this.cache.enable(),
      onLost: (why, error) => {
        this.cache.disable();
        // A Postgres outage is logged once by DatabaseOutage; anything else that cost LISTEN is worth a line.
        if (!this.outage.report(error)) this.logger.warn(`device cache off until LISTEN is back: ${why}`);
      },
    });
    await this.listener.start();
  }

  async onApplicationShutdown() {
    this.cache.disable();
    await this.listener?.stop();
  }
}
