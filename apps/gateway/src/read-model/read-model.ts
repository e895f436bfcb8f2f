import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { notFound } from '@meter/http';
import { PreparedQueries } from '@meter/persistence';
import { DeviceCache } from './device-cache';
import {
  episodesRaisedBetween,
  listAlertEpisodes,
  openAlertEpisodes,
  type AlertCursor,
  type EpisodeStateFilter,
  consumptionInWindow,
  coveredChannels,
  deviceHistory,
  findDevices,
  latestReadings,
  listDevices,
  resetsInWindow,
  type DeviceRecord,
} from '@meter/read-model';

/** The consumption read model as the gateway reads it; every query is scoped to the caller's organization. */
@Injectable()
export class ReadModel {
  private readonly db: PreparedQueries;

  constructor(
    @Inject(DataSource) dataSource: DataSource,
    @Inject(DeviceCache) private readonly cache: DeviceCache,
  ) {
    this.db = PreparedQueries.of(dataSource);
  }

  /** A device of the organization, or 404: another organization's device is unknown here. */
  async device(orgId: string, deviceId: number): Promise<DeviceRecord> {
    const device = (await this.devices(orgId, [deviceId])).get(deviceId);
    if (!device) throw notFound(`device ${deviceId} not found`);
    return device;
  }

  devices(orgId: string, deviceIds: readonly number[]) {
    return this.cache.devices(orgId, deviceIds, (missing) => findDevices(this.db, orgId, missing));
  }

  page(orgId: string, afterId: number, limit: number) {
    return this.cache.page(orgId, afterId, limit, () => listDevices(this.db, orgId, afterId, limit));
  }

  /** The device, its intervals over [from, to) and its consumption in the window, in one query; 404 as `device`. */
  async history(orgId: string, deviceId: number, from: number, to: number, window?: { from: number; to: number }) {
    const history = await deviceHistory(this.db, orgId, deviceId, from, to, window);
    if (!history) throw notFound(`device ${deviceId} not found`);
    return history;
  }

  consumption(orgId: string, deviceIds: readonly number[], from: number, to: number) {
    return consumptionInWindow(this.db, orgId, deviceIds, from, to);
  }

  coveredChannels(orgId: string, deviceIds: readonly number[], from: number, to: number) {
    return coveredChannels(this.db, orgId, deviceIds, from, to);
  }

  resets(orgId: string, deviceIds: readonly number[], from: number, to: number) {
    return resetsInWindow(this.db, orgId, deviceIds, from, to);
  }

  latest(orgId: string, deviceIds: readonly number[]) {
    return latestReadings(this.db, orgId, deviceIds);
  }

  /** `deviceIds`: only those devices' episodes (a credential limited to them). */
  alerts(orgId: string, query: { deviceId?: number; deviceIds?: readonly number[]; state: EpisodeStateFilter; limit: number; after?: AlertCursor }) {
    return listAlertEpisodes(this.db, orgId, query);
  }

  /** Open episodes of the devices' channels. */
  openAlerts(orgId: string, deviceIds: readonly number[]) {
    return openAlertEpisodes(this.db, orgId, deviceIds);
  }

  /** The device's episodes raised inside [from, to). */
  episodesRaised(orgId: string, deviceId: number, from: number, to: number) {
    return episodesRaisedBetween(this.db, orgId, deviceId, from, to);
  }
}
