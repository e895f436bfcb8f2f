import type { EpisodeCode } from '@meter/consumption';
import type { DeviceHistory, DeviceRecord } from '@meter/read-model';

/**
 * What a device report reads, scoped to the organization: the gateway's read
 * model (with its device cache) and the management API's both answer it from
 * the same @meter/read-model queries.
 */
export interface DeviceReportReader {
  /** The organization's device, or a 404 problem (another organization's device is unknown). */
  device(orgId: string, deviceId: number): Promise<DeviceRecord>;
  /** `deviceHistory` of @meter/read-model, or a 404 problem. */
  history(orgId: string, deviceId: number, from: number, to: number, window?: { from: number; to: number }): Promise<DeviceHistory>;
  /** `episodesRaisedBetween` of @meter/read-model. */
  episodesRaised(
    orgId: string,
    deviceId: number,
    from: number,
    to: number,
  ): Promise<{ channel: number; code: EpisodeCode; raisedAt: number; message: string }[]>;
  /** `consumptionInWindow` of @meter/read-model. */
  consumption(orgId: string, deviceIds: readonly number[], from: number, to: number): Promise<Map<number, Map<number, number>>>;
}
