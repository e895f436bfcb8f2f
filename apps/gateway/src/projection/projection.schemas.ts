import { z } from 'zod';
import { deviceIdListParam, deviceIdSchema } from '@meter/device-reports';
import { MAX_BULK_DEVICES } from './bulk-limit';

export {
  bulkProjectionSchema,
  bulkProjectionsSchema,
  projectionSchema,
  type BulkProjection,
  type BulkProjections,
  type Projection,
} from '@meter/device-reports';

export const deviceIdPath = z.object({
  deviceId: deviceIdSchema.meta({ description: 'The device (an id of GET /meter/v1/devices).', param: { example: 1042 } }),
});

/** The query of GET /meter/v1/projection/bulk: checkQuery reads it, the documents show it. */
export const bulkProjectionQuery = z.object({
  device_ids: deviceIdListParam(MAX_BULK_DEVICES).meta({
    pattern: String.raw`^\s*[1-9][0-9]*\s*(,\s*[1-9][0-9]*\s*){0,${MAX_BULK_DEVICES - 1}}$`,
    description: `Comma-separated device ids, 1..${MAX_BULK_DEVICES} of them.`,
    param: { example: '1042,1057,1043' },
  }),
});
