import { z } from 'zod';
import { collectorFormat } from '@meter/contracts';

/** `POST /collect/v1/{format}`'s path. */
export const collectPath = z.object({
  format: collectorFormat.meta({ description: "The collector credential's format.", param: { example: 'wmbusmeters' } }),
});

/** ChirpStack's HTTP integration names the event in the query; only `up` carries readings. */
export const collectQuery = z.object({
  event: z
    .string()
    .optional()
    .meta({ description: 'ChirpStack adds `?event=<type>`; events other than `up` are acknowledged and ignored.', param: { example: 'up' } }),
});

/**
 * The body in the format's own JSON (docs/collectors.md): each format's
 * decoder reads it from its bytes, whatever the Content-Type.
 */
export const uplinkBody = z.looseObject({}).meta({ id: 'Uplink', description: "One uplink in the format's own JSON (docs/collectors.md)." });

export const uplinkAcceptedSchema = z
  .object({
    outcome: z
      .enum(['stored', 'ignored', 'unknown_device'])
      .meta({ description: '`stored` in JetStream; `ignored` (not an uplink, e.g. a join); `unknown_device`: no device has its radio id (dead-lettered).' }),
    readings: z.number().int().min(0).meta({ description: 'Readings stored.' }),
    alarms: z.number().int().min(0).meta({ description: 'Device alarms raised or cleared.' }),
    detail: z.string().optional().meta({ description: 'Why nothing was stored, when nothing was.' }),
  })
  .meta({ id: 'UplinkAccepted' });

export type UplinkAccepted = z.infer<typeof uplinkAcceptedSchema>;
