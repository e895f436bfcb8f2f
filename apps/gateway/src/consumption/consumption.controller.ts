import { Controller, Get, Headers, Inject, Query } from '@nestjs/common';
import { validationFailed } from '@meter/http';
import { notOneValue, parseDeviceId, requestedZone } from '../read-model/request-params';
import { CurrentCaller, type Caller } from '../security/caller';
import { assertVisible } from '../security/device-scope';
import { requestedUnit } from '../units/x-unit';
import { ApiIntervalConsumption } from './consumption.openapi';
import { ConsumptionService } from './consumption.service';

@Controller('meter/v1/consumption')
export class ConsumptionController {
  constructor(@Inject(ConsumptionService) private readonly service: ConsumptionService) {}

  @Get()
  @ApiIntervalConsumption()
  consumption(
    @CurrentCaller() caller: Caller,
    @Query('device_id') deviceId: unknown,
    @Query('from') from: unknown,
    @Query('to') to: unknown,
    @Query('interval') interval: unknown,
    @Query('channel') channel: unknown,
    @Headers('x-timezone') zone: string | undefined,
    @Headers('x-unit') unit: string | undefined,
  ) {
    const request = {
      deviceId: parseDeviceId(deviceId, 'device_id'),
      from: oneString(from, 'from'),
      to: oneString(to, 'to'),
      interval: oneString(interval, 'interval'),
      channel: channel === undefined ? 1 : parseDeviceId(channel, 'channel'),
    };
    assertVisible(caller, request.deviceId);
    return this.service.consumption(caller.orgId, request, requestedZone(zone), requestedUnit(unit));
  }
}

function oneString(raw: unknown, field: string): string {
  if (typeof raw !== 'string') throw validationFailed([{ field, message: notOneValue(raw) }]);
  return raw;
}
