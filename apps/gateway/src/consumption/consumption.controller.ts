import { Controller, Get, Headers, Inject, Query } from '@nestjs/common';
import { checkQuery } from '@meter/http';
import { requestedZone } from '@meter/device-reports';
import { CurrentCaller, type Caller } from '../security/caller';
import { assertVisible } from '../security/device-scope';
import { requestedUnit } from '../units/x-unit';
import { ApiIntervalConsumption } from './consumption.openapi';
import { consumptionQuery } from './consumption.schemas';
import { ConsumptionService } from './consumption.service';

@Controller('meter/v1/consumption')
export class ConsumptionController {
  constructor(@Inject(ConsumptionService) private readonly service: ConsumptionService) {}

  @Get()
  @ApiIntervalConsumption()
  consumption(
    @CurrentCaller() caller: Caller,
    @Query() query: unknown,
    @Headers('x-timezone') zone: string | undefined,
    @Headers('x-unit') unit: string | undefined,
  ) {
    const { device_id: deviceId, from, to, interval, channel = 1 } = checkQuery(consumptionQuery, query);
    const request = { deviceId, from, to, interval, channel };
    assertVisible(caller, request.deviceId);
    return this.service.consumption(caller.orgId, request, requestedZone(zone), requestedUnit(unit));
  }
}
