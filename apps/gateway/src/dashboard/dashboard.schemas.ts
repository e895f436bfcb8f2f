import { z } from 'zod';
import { alertSchema, deviceIdSchema } from '../request/request-params.openapi';
import { volumeUnitSchema } from '../units/x-unit.openapi';

/** One figure of a channel; four per channel, in this order of `type`. */
const panelSchema = z
  .object({
    type: z.enum(['CURRENT_CONSUMPTION', 'DAILY_ESTIMATE', 'LAST_READING', 'MONTHLY_PROJECTION']).meta({
      description:
        'CURRENT_CONSUMPTION: the month so far; DAILY_ESTIMATE: average daily consumption of the completed days; ' +
        'LAST_READING: the latest register value; MONTHLY_PROJECTION: the projected month.',
    }),
    title: z.string(),
    value: z.number().meta({ description: "Rounded to the device's decimal places." }),
    display_value: z.string().meta({ description: '`value` with a thousands separator and one decimal.' }),
    unit: volumeUnitSchema,
    subtitle: z.string().optional().meta({ description: 'Absent on LAST_READING while the channel has no reading yet.' }),
    serie: z.string(),
    channel: z.int().min(1),
    alerts: z.array(alertSchema),
  })
  .meta({ id: 'Panel' });

export type Panel = z.output<typeof panelSchema>;

export const dashboardSchema = z
  .object({
    results: z
      .array(
        z.object({
          device_id: deviceIdSchema,
          status: z.enum(['SUCCESS', 'NOT_FOUND']).meta({ description: 'NOT_FOUND: no such device in the organization; `panels` is then empty.' }),
          panels: z.array(panelSchema).meta({ description: 'Four panels per channel, channel by channel.' }),
        }),
      )
      .meta({ description: 'One result per requested device, in the order of the request.' }),
  })
  .meta({ id: 'Dashboard' });

export type Dashboard = z.output<typeof dashboardSchema>;
