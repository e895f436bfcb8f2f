import { Body, Controller, Get, Headers, Inject, Param, Patch, Query, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { FleetDevice } from '@meter/read-model';
import { parseDeviceId, requestedUnit, requestedZone, type DailyHistory, type Projection, type ThreeMonthHistory } from '@meter/device-reports';
import { parseBody } from '../common/parse-body';
import { AdminSessionGuard, CurrentAdmin, type CurrentAdminInfo } from '../sessions';
import { alertPage } from './alert-page';
import { DeviceRadioIds } from './device-radio-ids.service';
import { devicePageToken, readDevicePageToken } from './fleet-page-token';
import { checkQuery } from '@meter/http';
import { DEFAULT_FLEET_PAGE } from './fleet-params';
import { FleetReadModel } from './fleet-read-model';
import { fleetDeviceView } from './fleet-views';
import { deviceAlertsParams, deviceListParams, updateDeviceRequest, type FleetAlertList, type FleetDeviceView } from './fleet.schemas';
import { ApiDeviceAlerts, ApiDeviceHistory, ApiDeviceList, ApiDeviceProjection, ApiDeviceThreeMonths, ApiGetDevice, ApiUpdateDevice } from './fleet.openapi';

/**
 * `/devices` of the management API: the organization's fleet for the console
 * (docs/management-api.md, "Fleet"). The consumption answers are the
 * gateway's (@meter/device-reports), with the same X-Timezone and X-Unit.
 */
@Controller('devices')
@UseGuards(AdminSessionGuard)
export class DevicesController {
  constructor(
    @Inject(FleetReadModel) private readonly fleet: FleetReadModel,
    @Inject(DeviceRadioIds) private readonly radioIds: DeviceRadioIds,
  ) {}

  @Get()
  @ApiDeviceList()
  async list(@CurrentAdmin() admin: CurrentAdminInfo, @Query() query: unknown, @Query('next_page_token') token: unknown) {
    const { q, limit: size = DEFAULT_FLEET_PAGE } = checkQuery(deviceListParams, query);
    const search = q || undefined;
    const afterId = token === undefined ? 0 : readDevicePageToken(token);
    const page = await this.fleet.page(admin.orgId, { afterId, limit: size, search });
    const ids = page.devices.map((d) => d.deviceId);
    const [latest, open] = ids.length ? await Promise.all([this.fleet.latest(admin.orgId, ids), this.fleet.openAlerts(admin.orgId, ids)]) : [[], []];
    const last = page.devices[page.devices.length - 1];
    return {
      devices: page.devices.map((d) =>
        fleetDeviceView(
          d,
          latest.filter((r) => r.deviceId === d.deviceId),
          open.filter((e) => e.device_id === d.deviceId),
        ),
      ),
      has_more: page.hasMore,
      next_page_token: page.hasMore && last ? devicePageToken(last.deviceId) : null,
    };
  }

  @Get(':id')
  @ApiGetDevice()
  async get(@CurrentAdmin() admin: CurrentAdminInfo, @Param('id') id: string): Promise<FleetDeviceView> {
    const deviceId = parseDeviceId(id, 'id');
    return this.view(admin.orgId, await this.fleet.fleetDevice(admin.orgId, deviceId));
  }

  @Patch(':id')
  @ApiUpdateDevice()
  async update(
    @CurrentAdmin() admin: CurrentAdminInfo,
    @Param('id') id: string,
    @Body() body: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<FleetDeviceView> {
    const deviceId = parseDeviceId(id, 'id');
    const request = parseBody(updateDeviceRequest, body);
    const edit = await this.radioIds.edit(admin.orgId, deviceId, request.external_ids);
    if (!edit.applied) reply.status(202);
    return this.view(admin.orgId, edit.device);
  }

  @Get(':id/history')
  @ApiDeviceHistory()
  history(
    @CurrentAdmin() admin: CurrentAdminInfo,
    @Param('id') id: string,
    @Query('period') period: unknown,
    @Headers('x-timezone') zone: string | undefined,
    @Headers('x-unit') unit: string | undefined,
  ): Promise<DailyHistory> {
    return this.fleet.reports.history(admin.orgId, parseDeviceId(id, 'id'), period, requestedZone(zone), requestedUnit(unit));
  }

  @Get(':id/history/3m')
  @ApiDeviceThreeMonths()
  threeMonths(
    @CurrentAdmin() admin: CurrentAdminInfo,
    @Param('id') id: string,
    @Headers('x-timezone') zone: string | undefined,
    @Headers('x-unit') unit: string | undefined,
  ): Promise<ThreeMonthHistory> {
    return this.fleet.reports.threeMonths(admin.orgId, parseDeviceId(id, 'id'), requestedZone(zone), requestedUnit(unit));
  }

  @Get(':id/projection')
  @ApiDeviceProjection()
  projection(
    @CurrentAdmin() admin: CurrentAdminInfo,
    @Param('id') id: string,
    @Headers('x-timezone') zone: string | undefined,
    @Headers('x-unit') unit: string | undefined,
  ): Promise<Projection> {
    return this.fleet.reports.projection(admin.orgId, parseDeviceId(id, 'id'), requestedZone(zone), requestedUnit(unit));
  }

  @Get(':id/alerts')
  @ApiDeviceAlerts()
  async alerts(
    @CurrentAdmin() admin: CurrentAdminInfo,
    @Param('id') id: string,
    @Query() params: unknown,
    @Query('next_page_token') token: unknown,
  ): Promise<FleetAlertList> {
    const deviceId = parseDeviceId(id, 'id');
    const { state = 'open', limit = DEFAULT_FLEET_PAGE } = checkQuery(deviceAlertsParams, params);
    const query = { deviceId, state, limit };
    await this.fleet.device(admin.orgId, deviceId); // another organization's device: 404, not an empty list
    return alertPage(this.fleet, admin.orgId, query, token);
  }

  private async view(orgId: string, device: FleetDevice): Promise<FleetDeviceView> {
    const ids = [device.deviceId];
    const [latest, open] = await Promise.all([this.fleet.latest(orgId, ids), this.fleet.openAlerts(orgId, ids)]);
    return fleetDeviceView(device, latest, open);
  }
}
