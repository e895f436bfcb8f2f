import { Controller, Get, Headers, Inject, Query } from '@nestjs/common';
import { checkQuery } from '@meter/http';
import { requestedZone } from '@meter/device-reports';
import { deviceIdQuery } from '../request/request-params.openapi';
import { CurrentCaller, type Caller } from '../security/caller';
import { assertVisible } from '../security/device-scope';
import { requestedUnit } from '../units/x-unit';
import { ApiDailyHistory, ApiThreeMonthHistory } from './history.openapi';
import { HistoryService } from './history.service';

@Controller('meter/v1/history')
export class HistoryController {
  constructor(@Inject(HistoryService) private readonly history: HistoryService) {}

  @Get()
  @ApiDailyHistory()
  daily(
    @CurrentCaller() caller: Caller,
    @Query() query: unknown,
    @Query('period') period: unknown,
    @Headers('x-timezone') zone: string | undefined,
    @Headers('x-unit') unit: string | undefined,
  ) {
    // The period is read by @meter/device-reports, in the device's zone.
    const { device_id: id } = checkQuery(deviceIdQuery, query);
    assertVisible(caller, id);
    return this.history.history(caller.orgId, id, period, requestedZone(zone), requestedUnit(unit));
  }

  @Get('3m')
  @ApiThreeMonthHistory()
  threeMonths(
    @CurrentCaller() caller: Caller,
    @Query() query: unknown,
    @Headers('x-timezone') zone: string | undefined,
    @Headers('x-unit') unit: string | undefined,
  ) {
    const { device_id: id } = checkQuery(deviceIdQuery, query);
    assertVisible(caller, id);
    return this.history.threeMonths(caller.orgId, id, requestedZone(zone), requestedUnit(unit));
  }
}
