import { Controller, Get, Headers, Inject, Param, Query } from '@nestjs/common';
import { ReadModel } from '../read-model/read-model';
import { checkQuery } from '@meter/http';
import { parseDeviceId, requestedZone } from '@meter/device-reports';
import { deviceIdQuery } from '../request/request-params.openapi';
import { CurrentCaller, type Caller } from '../security/caller';
import { assertVisible, visibleIds } from '../security/device-scope';
import { deviceVolumes, requestedUnit } from '../units/x-unit';
import { MonthProjectionService } from './month-projection.service';
import { projectionBody } from './projection-body';
import { ApiBulkProjection, ApiProjectionByPath, ApiProjectionByQuery } from './projection.openapi';
import { bulkProjectionQuery, type BulkProjections, type Projection } from './projection.schemas';

@Controller('meter/v1/projection')
export class ProjectionController {
  constructor(
    @Inject(ReadModel) private readonly readModel: ReadModel,
    @Inject(MonthProjectionService) private readonly projections: MonthProjectionService,
  ) {}

  @Get()
  @ApiProjectionByQuery()
  byQuery(
    @CurrentCaller() caller: Caller,
    @Query() query: unknown,
    @Headers('x-timezone') zone: string | undefined,
    @Headers('x-unit') unit: string | undefined,
  ): Promise<Projection> {
    return this.single(caller, checkQuery(deviceIdQuery, query).device_id, zone, unit);
  }

  @Get('bulk')
  @ApiBulkProjection()
  async bulk(
    @CurrentCaller() caller: Caller,
    @Query() query: unknown,
    @Headers('x-timezone') zoneHeader: string | undefined,
    @Headers('x-unit') unitHeader: string | undefined,
  ): Promise<BulkProjections> {
    const ids = checkQuery(bulkProjectionQuery, query).device_ids;
    const zone = requestedZone(zoneHeader);
    const unit = requestedUnit(unitHeader);
    const devices = await this.readModel.devices(caller.orgId, visibleIds(caller, [...new Set(ids)]));
    const projected = await this.projections.project(caller.orgId, [...devices.values()], zone);
    const projections: BulkProjections['projections'] = [];
    const errors: BulkProjections['errors'] = [];
    for (const id of ids) {
      const p = projected.get(id);
      if (p) projections.push(projectionBody(p, false, deviceVolumes(p.device, unit)));
      else errors.push({ device_id: String(id), code: 'NOT_FOUND', message: `device ${id} not found` });
    }
    return { projections, errors };
  }

  @Get(':deviceId')
  @ApiProjectionByPath()
  byPath(
    @CurrentCaller() caller: Caller,
    @Param('deviceId') deviceId: string,
    @Headers('x-timezone') zone: string | undefined,
    @Headers('x-unit') unit: string | undefined,
  ): Promise<Projection> {
    return this.single(caller, parseDeviceId(deviceId, 'deviceId'), zone, unit);
  }

  private async single(caller: Caller, deviceId: number, zoneHeader: string | undefined, unitHeader: string | undefined): Promise<Projection> {
    const zone = requestedZone(zoneHeader);
    const unit = requestedUnit(unitHeader);
    assertVisible(caller, deviceId);
    const device = await this.readModel.device(caller.orgId, deviceId);
    const projected = await this.projections.project(caller.orgId, [device], zone);
    return projectionBody(projected.get(deviceId)!, true, deviceVolumes(device, unit));
  }
}
