import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { DeviceReports, type DeviceReportReader } from '@meter/device-reports';
import { notFound } from '@meter/http';
import { PreparedQueries } from '@meter/persistence';
import {
  consumptionInWindow,
  deviceHistory,
  episodesRaisedBetween,
  findDevices,
  fleetDevice,
  fleetPage,
  latestReadings,
  listAlertEpisodes,
  openAlertEpisodes,
  type AlertCursor,
  type DeviceRecord,
  type EpisodeStateFilter,
  type FleetDevice,
} from '@meter/read-model';

/**
 * The consumption read model as the management API reads it (the fleet
 * routes): the same @meter/read-model queries as the gateway, every one
 * scoped to the admin's organization, and the gateway's DeviceReports for
 * the consumption answers.
 */
@Injectable()
export class FleetReadModel implements DeviceReportReader {
  private readonly db: PreparedQueries;
  readonly reports: DeviceReports;

  constructor(@Inject(DataSource) dataSource: DataSource, @Inject(APP_CONFIG) config: AppConfig) {
    this.db = PreparedQueries.of(dataSource);
    // TEST_NOW pins "now" as in the gateway (tests compare the two); refused in production.
    const pinned = config.TEST_NOW;
    this.reports = new DeviceReports(this, () => pinned ?? Date.now());
  }

  async device(orgId: string, deviceId: number): Promise<DeviceRecord> {
    const device = (await findDevices(this.db, orgId, [deviceId])).get(deviceId);
    if (!device) throw notFound(`device ${deviceId} not found`);
    return device;
  }

  async fleetDevice(orgId: string, deviceId: number): Promise<FleetDevice> {
    const device = await fleetDevice(this.db, orgId, deviceId);
    if (!device) throw notFound(`device ${deviceId} not found`);
    return device;
  }

  async history(orgId: string, deviceId: number, from: number, to: number, window?: { from: number; to: number }) {
    const history = await deviceHistory(this.db, orgId, deviceId, from, to, window);
    if (!history) throw notFound(`device ${deviceId} not found`);
    return history;
  }

  episodesRaised(orgId: string, deviceId: number, from: number, to: number) {
    return episodesRaisedBetween(this.db, orgId, deviceId, from, to);
  }

  consumption(orgId: string, deviceIds: readonly number[], from: number, to: number) {
    return consumptionInWindow(this.db, orgId, deviceIds, from, to);
  }

  page(orgId: string, query: { afterId: number; limit: number; search?: string }) {
    return fleetPage(this.db, orgId, query);
  }

  latest(orgId: string, deviceIds: readonly number[]) {
    return latestReadings(this.db, orgId, deviceIds);
  }

  openAlerts(orgId: string, deviceIds: readonly number[]) {
    return openAlertEpisodes(this.db, orgId, deviceIds);
  }

  alerts(orgId: string, query: { deviceId?: number; state: EpisodeStateFilter; limit: number; after?: AlertCursor; code?: string }) {
    return listAlertEpisodes(this.db, orgId, query);
  }
}
