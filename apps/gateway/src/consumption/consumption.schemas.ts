import { z } from 'zod';
import { CONSUMPTION_INTERVALS, MAX_CONSUMPTION_POINTS, type Quality } from '@meter/consumption';
import { deviceIdParam, oneStringParam } from '@meter/device-reports';
import { decimalStringSchema, deviceIdQuery, deviceIdSchema } from '../request/request-params.openapi';
import { volumeUnitSchema } from '../units/x-unit.openapi';

const LOCAL_BOUND = /^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2})?$/;

/**
 * The query of GET /meter/v1/consumption. checkQuery takes each parameter
 * once; resolveConsumptionWindow (@meter/consumption) reads the bounds and
 * the interval in the zone in effect, with its own answers, so their pattern
 * and values are shown to clients here without being checked twice.
 */
export const consumptionQuery = deviceIdQuery.extend({
  from: oneStringParam.meta({
    pattern: LOCAL_BOUND.source,
    description:
      "Start, included: a local date `YYYY-MM-DD` or date-time `YYYY-MM-DDTHH:MM` in the zone in effect (`X-Timezone`, else the device's). " +
      'A date-time must be the start of a point: points tile each local day from its midnight. With `P1M`, the first day of a month.',
    param: { example: '2026-11-20' },
  }),
  to: oneStringParam.meta({ pattern: LOCAL_BOUND.source, description: 'End, excluded, written like `from`.', param: { example: '2026-11-21' } }),
  interval: oneStringParam.meta({
    enum: [...CONSUMPTION_INTERVALS],
    description: `The length of each point: 15 minutes, an hour, a local day or a local month. At most ${MAX_CONSUMPTION_POINTS} points per call.`,
    param: { example: 'PT1H' },
  }),
  channel: deviceIdParam.optional().meta({ description: 'The channel of a multi-channel device; default 1.', param: { example: 1 } }),
});

const quality = z.enum(['ACTUAL', 'ESTIMATED', 'MISSING'] satisfies Quality[]);

export const consumptionSchema = z
  .object({
    device_id: deviceIdSchema,
    channel: z.int().min(1),
    time_zone: z.string().meta({ description: 'The IANA zone the local dates and times are read in.' }),
    unit: volumeUnitSchema,
    interval: z.enum(CONSUMPTION_INTERVALS),
    from: z.string().meta({ description: 'The start of the first point asked for, RFC 3339 with the local offset.' }),
    to: z.string().meta({ description: 'The end asked for, RFC 3339 with the local offset.' }),
    points: z
      .array(
        z.object({
          start: z.string().meta({ description: 'RFC 3339 with the local offset at that instant.' }),
          end: z.string().meta({ description: 'RFC 3339 with the local offset at that instant.' }),
          value: decimalStringSchema.meta({
            description:
              'Consumption in the point, with the device\'s decimal places, in `unit`; `"0"` when MISSING. The points of a local day add up exactly to that day\'s value in GET /meter/v1/history.',
          }),
          quality: quality.meta({
            description:
              'As a history day: MISSING when no reading covers the point, ESTIMATED when part of it is spread over an interval between readings longer than 24 hours, ACTUAL otherwise.',
          }),
        }),
      )
      .meta({ description: 'Oldest first; a DST day has 23 or 25 hourly points.' }),
  })
  .meta({ id: 'IntervalConsumption' });

export type IntervalConsumption = z.output<typeof consumptionSchema>;
