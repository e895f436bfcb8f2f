import { Body, Controller, Headers, HttpCode, Inject, Post } from '@nestjs/common';
import { requestedZone } from '@meter/device-reports';
import { CurrentCaller, type Caller } from '../security/caller';
import { visibleIds } from '../security/device-scope';
import { requestedUnit } from '../units/x-unit';
import { parseDashboardRequest } from './dashboard-request';
import { ApiDashboard } from './dashboard.openapi';
import { DashboardService } from './dashboard.service';

@Controller('meter/v1/dashboard')
export class DashboardController {
  constructor(@Inject(DashboardService) private readonly dashboard: DashboardService) {}

  @Post()
  @HttpCode(200)
  @ApiDashboard()
  panels(@CurrentCaller() caller: Caller, @Body() body: unknown, @Headers('x-timezone') zone: string | undefined, @Headers('x-unit') unit: string | undefined) {
    return this.dashboard.dashboard(caller.orgId, parseDashboardRequest(body), requestedZone(zone), requestedUnit(unit), (ids) => visibleIds(caller, ids));
  }
}
