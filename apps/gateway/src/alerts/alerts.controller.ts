import { Controller, Get, Inject, Query } from '@nestjs/common';
import { checkQuery, validationFailed } from '@meter/http';
import { episodeView } from '@meter/read-model';
import { DEFAULT_PAGE_SIZE } from '../paging/page-size';
import { PAGE_TOKEN_KEYS } from '../paging/page-token-keys';
import { ReadModel } from '../read-model/read-model';
import { CurrentCaller, type Caller } from '../security/caller';
import { canSee } from '../security/device-scope';
import { signAlertPageToken, verifyAlertPageToken } from './alert-page-token';
import { ApiAlertList } from './alerts.openapi';
import { alertListParams, type AlertList } from './alerts.schemas';

/** Alert episodes of the organization's devices, newest first (docs/alerts-and-webhooks.md). */
@Controller('meter/v1/alerts')
export class AlertsController {
  constructor(
    @Inject(ReadModel) private readonly readModel: ReadModel,
    @Inject(PAGE_TOKEN_KEYS) private readonly keys: Uint8Array[],
  ) {}

  @Get()
  @ApiAlertList()
  async list(@CurrentCaller() caller: Caller, @Query() query: unknown, @Query('next_page_token') token: unknown): Promise<AlertList> {
    const { state: filter = 'open', device_id: device, limit: size = DEFAULT_PAGE_SIZE } = checkQuery(alertListParams, query);
    const after = token === undefined ? undefined : typeof token === 'string' ? verifyAlertPageToken(this.keys, caller.orgId, token) : undefined;
    if (token !== undefined && after === undefined) {
      throw validationFailed([{ field: 'next_page_token', message: 'is not a token this API issued to your organization' }]);
    }
    // A device the credential may not see has no alerts, as an unknown one.
    if (device !== undefined && !canSee(caller, device)) return { alerts: [], has_more: false, next_page_token: null };
    const deviceIds = caller.deviceIds && [...caller.deviceIds];
    const page = await this.readModel.alerts(caller.orgId, { deviceId: device, deviceIds, state: filter, limit: size, after });
    const last = page.episodes[page.episodes.length - 1];
    return {
      alerts: page.episodes.map(episodeView),
      has_more: page.hasMore,
      next_page_token: page.hasMore && last ? signAlertPageToken(this.keys, caller.orgId, { raisedAt: last.raised_at, id: last.id }) : null,
    };
  }
}
