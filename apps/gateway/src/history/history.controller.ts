import { Controller, Get, Headers, Inject, Query } from '@nestjs/common';
import { parseDeviceId, requestedZone } from '../read-model/request-params';
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
    @Query('device_id') deviceId: unknown,
    @Query('period') period: unknown,
    @Headers('x-timezone') zone: string | undefined,
    @Headers('x-unit') unit: string | undefined,
  ) {
    const id = parseDeviceId(deviceId, 'device_id');
    assertVisible(caller, id);
    return this.history.history(caller.orgId, id, period, requestedZone(zone), requestedUnit(unit));
  }

  @Get('3m')
  @ApiThreeMonthHistory()
  threeMonths(
    @CurrentCaller() caller: Caller,
    @Query('device_id') deviceId: unknown,
    @Headers('x-timezone') zone: string | undefined,
    @Headers('x-unit') unit: string | undefined,
  ) {
    const id = parseDeviceId(deviceId, 'device_id');
    assertVisible(caller, id);
    return this.history.threeMonths(caller.orgId, id, requestedZone(zone), requestedUnit(unit));
  }
}
