import { Inject, Injectable } from '@nestjs/common';
import { localDateOf, startOfLocalDay, type Unit } from '@meter/consumption';
import type { DeviceRecord } from '@meter/read-model';
import { MonthProjectionService } from '../projection/month-projection.service';
import { Clock } from '../clock/clock';
import { ReadModel } from '../read-model/read-model';
import { deviceVolumes } from '../units/x-unit';
import type { DashboardRequest } from './dashboard-request';
import type { Dashboard, Panel } from './dashboard.schemas';
import { channelPanels } from './panels';

/** Four panels per channel for each requested device; unknown ones answer NOT_FOUND. */
@Injectable()
export class DashboardService {
  constructor(
    @Inject(ReadModel) private readonly readModel: ReadModel,
    @Inject(MonthProjectionService) private readonly projections: MonthProjectionService,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  /** `unit`: X-Unit, absent for each device's own unit; `visible`: the ids the credential may see (the rest are NOT_FOUND). */
  async dashboard(
    orgId: string,
    request: DashboardRequest,
    zoneOverride: string | undefined,
    unit?: Unit,
    visible: (ids: number[]) => number[] = (ids) => ids,
  ): Promise<Dashboard> {
    const ids = visible([...new Set(request.devices.map((d) => d.device_id))]);
    const devices = await this.readModel.devices(orgId, ids);
    const found = [...devices.values()];
    // One instant for every panel: at a month's turn the month so far and the projection must be of the same month.
    const now = this.clock.now();
    const [projected, latest, monthToDate, open] = await Promise.all([
      this.projections.project(orgId, found, zoneOverride, now),
      this.readModel.latest(
        orgId,
        found.map((d) => d.deviceId),
      ),
      this.monthToDate(orgId, found, zoneOverride, now),
      this.readModel.openAlerts(
        orgId,
        found.map((d) => d.deviceId),
      ),
    ]);
    const panelsOf = (device: DeviceRecord) => {
      const p = projected.get(device.deviceId)!;
      const month = monthToDate.get(device.deviceId)!;
      const volumes = deviceVolumes(device, unit);
      const panels: Panel[] = [];
      for (let channel = 1; channel <= device.channels; channel++) {
        panels.push(
          ...channelPanels(device, p.zone, {
            channel,
            monthToDate: month.sums.get(channel) ?? 0,
            monthCovered: month.covered.has(channel),
            monthResets: month.resets.has(`${device.deviceId}:${channel}`),
            projection: p.channels.get(channel)!,
            latest: latest.find((l) => l.deviceId === device.deviceId && l.channel === channel),
            volumes,
            openAlerts: open.filter((e) => e.device_id === device.deviceId && e.channel === channel).map((e) => ({ code: e.code, message: e.message })),
          }),
        );
      }
      return panels;
    };
    return {
      results: request.devices.map(({ device_id }) => {
        const device = devices.get(device_id);
        return device ? { device_id, status: 'SUCCESS', panels: panelsOf(device) } : { device_id, status: 'NOT_FOUND', panels: [] };
      }),
    };
  }

  /** Consumption from the start of local day 1 to now, per channel, one query per zone in effect. */
  private async monthToDate(orgId: string, devices: readonly DeviceRecord[], zoneOverride: string | undefined, now: number) {
    const byZone = new Map<string, DeviceRecord[]>();
    for (const device of devices) {
      const zone = zoneOverride ?? device.timeZone;
      byZone.set(zone, [...(byZone.get(zone) ?? []), device]);
    }
    const result = new Map<number, { sums: Map<number, number>; covered: Set<number>; resets: Set<string> }>();
    for (const [zone, group] of byZone) {
      const ids = group.map((d) => d.deviceId);
      const today = localDateOf(now, zone);
      const from = startOfLocalDay(`${today.slice(0, 8)}01`, zone);
      const [sums, covered, resets] = await Promise.all([
        this.readModel.consumption(orgId, ids, from, now),
        this.readModel.coveredChannels(orgId, ids, from, now),
        this.readModel.resets(orgId, ids, from, now),
      ]);
      for (const id of ids) result.set(id, { sums: sums.get(id) ?? new Map(), covered: covered.get(id) ?? new Set(), resets });
    }
    return result;
  }
}
