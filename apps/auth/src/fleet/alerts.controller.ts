import { Controller, Get, Inject, Query, UseGuards } from '@nestjs/common';
import { parseDeviceId } from '@meter/device-reports';
import { AdminSessionGuard, CurrentAdmin, type CurrentAdminInfo } from '../sessions';
import { alertPage } from './alert-page';
import { alertCode, alertState, fleetPageSize } from './fleet-params';
import { FleetReadModel } from './fleet-read-model';
import type { FleetAlertList } from './fleet.schemas';
import { ApiFleetAlerts } from './fleet.openapi';

/** `/alerts` of the management API: the fleet's alert episodes, newest first, filterable by state, code and device. */
@Controller('alerts')
@UseGuards(AdminSessionGuard)
export class AlertsController {
  constructor(@Inject(FleetReadModel) private readonly fleet: FleetReadModel) {}

  @Get()
  @ApiFleetAlerts()
  list(
    @CurrentAdmin() admin: CurrentAdminInfo,
    @Query('state') state: unknown,
    @Query('code') code: unknown,
    @Query('device_id') deviceId: unknown,
    @Query('limit') limit: unknown,
    @Query('next_page_token') token: unknown,
  ): Promise<FleetAlertList> {
    const query = {
      state: alertState(state),
      code: alertCode(code),
      deviceId: deviceId === undefined ? undefined : parseDeviceId(deviceId, 'device_id'),
      limit: fleetPageSize(limit),
    };
    return alertPage(this.fleet, admin.orgId, query, token);
  }
}
