import { z } from 'zod';
import { alertEpisode, externalIdsSchema } from '@meter/contracts';
import {
  alertStateParam,
  decimalStringSchema,
  deviceIdParam,
  deviceIdSchema,
  episodeCodeParam,
  pageSizeParam,
  periodSchema,
  searchTextParam,
} from '@meter/device-reports';
import { DEFAULT_FLEET_PAGE, MAX_FLEET_PAGE } from './fleet-params';

/*
 * Each query's `*Params` are what checkQuery reads, in the order the answer
 * names the first bad one; the page token is read by its decoder (fleet-page-token.ts).
 */
const limit = pageSizeParam(MAX_FLEET_PAGE)
  .optional()
  .meta({ description: `Page size 1..${MAX_FLEET_PAGE}. Default ${DEFAULT_FLEET_PAGE}.` });
const pageToken = {
  next_page_token: z.string().min(1).optional().meta({ description: 'The `next_page_token` of the previous page; anything else: 400.' }),
};

const nextPageToken = z.string().nullable().meta({ description: 'Opaque token of the next page; null on the last page.' });

export const deviceListParams = z.object({
  q: searchTextParam.optional().meta({ description: 'Only devices whose name contains it (any letter case) or whose id starts with it.' }),
  limit,
});
export const deviceListQuery = deviceListParams.extend(pageToken);

export const fleetDeviceSchema = z
  .object({
    device_id: deviceIdSchema,
    name: z.string(),
    unit: z.string().meta({ description: 'The unit of its register.' }),
    time_zone: z.string().meta({ description: 'Its IANA time zone: the default of its history.' }),
    channels: z.int().min(1),
    activated_at: z.iso.datetime(),
    external_ids: z
      .object({ dev_eui: z.string().nullable(), wmbus_id: z.string().nullable() })
      .meta({ description: 'Its radio ids (docs/collectors.md), null when not set.' }),
    last_reading: z
      .object({
        channel: z.int().min(1),
        read_at: z.iso.datetime(),
        value: decimalStringSchema.meta({ description: "The register, in the device's unit with its decimal places." }),
      })
      .nullable()
      .meta({ description: 'The newest reading of any channel; null before the first.' }),
    open_alerts: z.array(alertEpisode).meta({ description: 'Its open alert episodes, oldest first.' }),
  })
  .meta({ id: 'FleetDevice' });

export type FleetDeviceView = z.output<typeof fleetDeviceSchema>;

export const fleetDeviceListSchema = z
  .object({
    devices: z.array(fleetDeviceSchema).meta({ description: 'Ordered by id.' }),
    has_more: z.boolean(),
    next_page_token: nextPageToken,
  })
  .meta({ id: 'FleetDeviceList' });

export const updateDeviceRequest = z
  .strictObject({
    external_ids: externalIdsSchema.meta({
      description:
        'Its radio ids (docs/collectors.md), each unique in the organization: `dev_eui` 16 hex digits (a LoRaWAN DevEUI, stored in lower case), ' +
        '`wmbus_id` 8 digits. A member left out keeps its id, `null` removes it.',
      example: { dev_eui: '0004A30B001C0530', wmbus_id: null },
    }),
  })
  .meta({ id: 'UpdateDeviceRequest' });

export type UpdateDeviceRequest = z.output<typeof updateDeviceRequest>;

export const devicePath = z.object({ id: deviceIdSchema.meta({ description: 'The device id.', param: { example: 1042 } }) });

export const historyQuery = z.object({ period: periodSchema });

const state = alertStateParam.optional().meta({ description: 'Default `open`.' });

export const deviceAlertsParams = z.object({ state, limit });
export const deviceAlertsQuery = deviceAlertsParams.extend(pageToken);

export const fleetAlertsParams = z.object({
  state,
  code: episodeCodeParam.optional().meta({ description: 'Only episodes of this code.' }),
  device_id: deviceIdParam.optional().meta({ description: 'Only this device.' }),
  limit,
});
export const fleetAlertsQuery = fleetAlertsParams.extend(pageToken);

export const fleetAlertListSchema = z
  .object({
    alerts: z.array(alertEpisode).meta({ description: 'Newest first (by raised_at).' }),
    has_more: z.boolean(),
    next_page_token: nextPageToken,
  })
  .meta({ id: 'FleetAlertList' });

export type FleetAlertList = z.output<typeof fleetAlertListSchema>;
