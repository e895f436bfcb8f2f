import { z } from 'zod';
import type { Quality } from '@meter/consumption';
import { alertSchema, decimalStringSchema, deviceIdSchema, localDateSchema, volumeUnitSchema } from './schemas';

/** `period` of a daily history (resolvePeriod of @meter/consumption reads it). */
export const periodSchema = z.union([z.enum(['7D', '15D', 'CURRENT_MONTH']), z.string().regex(/^[0-9]{4}-(0[1-9]|1[0-2])$/)]).meta({
  description:
    '`7D` or `15D`: the last days, ending today; `CURRENT_MONTH`: day 1 to today; `YYYY-MM`: that whole month (the current one too, not a future one).',
  param: { example: '7D' },
});

const seriesHead = {
  serie: z.string(),
  label: z.string().meta({ description: 'The device name and, with several channels, the channel.' }),
  unit: volumeUnitSchema,
  decimal_places: z.int().min(0),
};

/** `value` and `value_fmt` of a day or a month. */
const figures = {
  value: decimalStringSchema.meta({
    description: 'The consumption with the device\'s decimal places, in the unit of `X-Unit` or else the device\'s; `"0"` on a day no reading covers.',
  }),
  value_fmt: z.string().meta({ description: 'The value with thousands separators and the unit.' }),
};

/** How far a day's value is measured (Quality of @meter/consumption). */
const quality = z.enum(['ACTUAL', 'ESTIMATED', 'MISSING'] satisfies Quality[]).meta({
  id: 'Quality',
  description:
    'MISSING: no reading covers the day (NO_DATA, value "0"); ESTIMATED: part of its value is spread over an interval between readings ' +
    'longer than 24 hours; ACTUAL: every covered part of the day lies between readings at most 24 hours apart.',
});

export const dailyHistorySchema = z
  .object({
    device_id: deviceIdSchema,
    period: z.string().meta({ description: 'The requested period.' }),
    time_zone: z.string().meta({ description: 'The IANA zone the days are counted in.' }),
    chart_type: z.enum(['BAR', 'LINE']).meta({ description: 'LINE for CURRENT_MONTH, BAR otherwise.' }),
    series: z
      .array(
        z.object({
          ...seriesHead,
          data_type: z.enum(['consumption']),
          description: z.string(),
          data_points: z
            .array(
              z.object({
                date: z
                  .string()
                  .regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2} 00:00:00\.000$/)
                  .meta({ description: 'Local midnight, `YYYY-MM-DD 00:00:00.000`.' }),
                ...figures,
                alerts: z.array(alertSchema),
                quality,
              }),
            )
            .meta({ description: 'One point per local day of the period, oldest first.' }),
          projection: z
            .object({ date: localDateSchema.meta({ description: 'The last day of the month.' }), value: z.number() })
            .meta({ description: "The channel's projection of the current month (as GET /meter/v1/projection)." }),
        }),
      )
      .meta({ description: 'One series per channel.' }),
    summary: z.string().meta({ description: 'Average per day over the period and the month projection, in words.' }),
  })
  .meta({ id: 'DailyHistory' });

export type DailyHistory = z.output<typeof dailyHistorySchema>;

const dayFigures = z.object({ date: localDateSchema, ...figures, alerts: z.array(alertSchema) });
const dayOfMonth = dayFigures.extend({ quality });

export const threeMonthHistorySchema = z
  .object({
    device_id: deviceIdSchema,
    time_zone: z.string().meta({ description: 'The IANA zone the days are counted in.' }),
    series: z
      .array(
        z.object({
          ...seriesHead,
          rows: z
            .array(
              dayFigures.extend({
                date: localDateSchema.meta({ description: 'The first day of the month.' }),
                by_days: z.array(dayOfMonth).meta({ description: 'Each local day of the month (up to today in the current one).' }),
              }),
            )
            .length(3)
            .meta({ description: 'The current month and the two before it, oldest first.' }),
        }),
      )
      .meta({ description: 'One series per channel.' }),
  })
  .meta({ id: 'ThreeMonthHistory' });

export type ThreeMonthHistory = z.output<typeof threeMonthHistorySchema>;
