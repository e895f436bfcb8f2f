import { Inject, Injectable } from '@nestjs/common';
import type { Unit } from '@meter/consumption';
import { DeviceReports, type DailyHistory, type ThreeMonthHistory } from '@meter/device-reports';
import { Clock } from '../clock/clock';
import { ReadModel } from '../read-model/read-model';

/**
 * Daily series (DailyHistory) and the three-month view (ThreeMonthHistory), one series per channel,
 * computed by @meter/device-reports (the management API's fleet routes answer through it too).
 */
@Injectable()
export class HistoryService {
  private readonly reports: DeviceReports;

  constructor(@Inject(ReadModel) readModel: ReadModel, @Inject(Clock) clock: Clock) {
    this.reports = new DeviceReports(readModel, () => clock.now());
  }

  /** `unit`: X-Unit, absent for the device's own unit. */
  history(orgId: string, deviceId: number, period: unknown, zoneOverride: string | undefined, unit?: Unit): Promise<DailyHistory> {
    return this.reports.history(orgId, deviceId, period, zoneOverride, unit);
  }

  threeMonths(orgId: string, deviceId: number, zoneOverride: string | undefined, unit?: Unit): Promise<ThreeMonthHistory> {
    return this.reports.threeMonths(orgId, deviceId, zoneOverride, unit);
  }
}
