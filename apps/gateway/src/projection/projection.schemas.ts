import { z } from 'zod';
import { deviceIdSchema } from '@meter/device-reports';
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

export const bulkProjectionQuery = z.object({
  device_ids: z
    .string()
    .regex(/^\s*[1-9][0-9]*\s*(,\s*[1-9][0-9]*\s*){0,99}$/)
    .meta({ description: `Comma-separated device ids, 1..${MAX_BULK_DEVICES} of them.`, param: { example: '1042,1057,1043' } }),
});
