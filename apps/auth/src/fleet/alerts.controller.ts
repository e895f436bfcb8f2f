import { Controller, Get, Inject, Query, UseGuards } from '@nestjs/common';
import { checkQuery } from '@meter/http';
import { AdminSessionGuard, CurrentAdmin, type CurrentAdminInfo } from '../sessions';
import { alertPage } from './alert-page';
import { DEFAULT_FLEET_PAGE } from './fleet-params';
import { FleetReadModel } from './fleet-read-model';
import { fleetAlertsParams, type FleetAlertList } from './fleet.schemas';
import { ApiFleetAlerts } from './fleet.openapi';

/** `/alerts` of the management API: the fleet's alert episodes, newest first, filterable by state, code and device. */
@Controller('alerts')
@UseGuards(AdminSessionGuard)
export class AlertsController {
  constructor(@Inject(FleetReadModel) private readonly fleet: FleetReadModel) {}

  @Get()
  @ApiFleetAlerts()
  list(@CurrentAdmin() admin: CurrentAdminInfo, @Query() params: unknown, @Query('next_page_token') token: unknown): Promise<FleetAlertList> {
    const { state = 'open', code, device_id: deviceId, limit = DEFAULT_FLEET_PAGE } = checkQuery(fleetAlertsParams, params);
    const query = { state, code, deviceId, limit };
    return alertPage(this.fleet, admin.orgId, query, token);
  }
}
