import { z } from 'zod';
import { localDateSchema, volumeUnitSchema } from './schemas';

const deviceIdString = z
  .string()
  .regex(/^[1-9][0-9]*$/)
  .meta({ description: 'The device id, as a string.' });

const figures = {
  projected_value: z.number().meta({ description: '`average_daily_consumption` × `total_days_in_month`, all channels together.' }),
  unit: volumeUnitSchema,
  days_used_for_calculation: z.int().min(1).meta({ description: 'Completed local days of the month (today excluded); on the 1st, the last 7 days.' }),
  total_days_in_month: z.int().min(28).max(31),
  average_daily_consumption: z.number().meta({ description: 'Consumption of the days used, divided by their number.' }),
  calculation_date: localDateSchema.meta({ description: 'Today in the zone in effect.' }),
  projection_date: localDateSchema.meta({ description: 'The last day of the month.' }),
};

const { projected_value, unit, ...calculation } = figures;

/** The current month's projection of one device, with its cost (fields in the order the gateway sends them). */
export const projectionSchema = z
  .object({
    device_id: deviceIdString,
    projected_value,
    projected_cost: z.number().meta({
      description:
        "The projected month's cost, 2 decimals: with a tariff, its standing charge × `total_days_in_month` plus the projected volume " +
        "priced through its monthly blocks; without one, `projected_value` × the device's price per unit. The same money whatever `X-Unit` says.",
    }),
    unit,
    currency_symbol: z.string().meta({ description: "The tariff's currency, or else the device's." }),
    ...calculation,
  })
  .meta({ id: 'Projection' });

export type Projection = z.output<typeof projectionSchema>;

/** A projection in the bulk answer: without cost and currency. */
export const bulkProjectionSchema = z.object({ device_id: deviceIdString, ...figures }).meta({ id: 'BulkProjection' });

export type BulkProjection = z.output<typeof bulkProjectionSchema>;

export const bulkProjectionsSchema = z
  .object({
    projections: z.array(bulkProjectionSchema).meta({ description: 'The devices found, in the order asked.' }),
    errors: z
      .array(z.object({ device_id: deviceIdString, code: z.enum(['NOT_FOUND']), message: z.string() }))
      .meta({ description: 'One per id the organization has no device of; empty when every device was found.' }),
  })
  .meta({ id: 'BulkProjections' });

export type BulkProjections = z.output<typeof bulkProjectionsSchema>;
