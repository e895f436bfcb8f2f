import { z } from 'zod';
import { EPISODE_CODES, UNITS, type AlertCode } from '@meter/consumption';
import { X_UNIT_VALUES } from './x-unit';

/** Device ids are positive integers a JS number holds exactly (request-params.ts parses them). */
export const deviceIdSchema = z.int().min(1).max(Number.MAX_SAFE_INTEGER);

/** `X-Timezone` on every route that works in local days. */
export const timeZoneHeader = z.object({
  'X-Timezone': z
    .string()
    .min(1)
    .optional()
    .meta({
      description: "IANA time zone name the local days are counted in; absent: the device's own `time_zone`; not an IANA name: 400.",
      param: { example: 'Europe/Madrid' },
    }),
});

/** A day's or a panel's remark: `code` is stable, `message` is for people. */
export const alertSchema = z
  .object({
    code: z.enum(['NO_DATA', 'REGISTER_RESET', ...EPISODE_CODES] satisfies AlertCode[]).meta({
      description:
        'NO_DATA: no reading covers the day (it counts 0); REGISTER_RESET: the register went down (a meter reset or replaced). ' +
        'The codes of alert episodes (GET /meter/v1/alerts): on a day, those raised that day; on a panel, those open on its channel.',
    }),
    message: z.string(),
  })
  .meta({ id: 'Alert' });

/** A local calendar date, `YYYY-MM-DD`. */
export const localDateSchema = z.iso.date();

/** A decimal as text with the device's decimal places, e.g. `"12.345"`. */
export const decimalStringSchema = z.string().regex(/^-?[0-9]+(\.[0-9]+)?$/);

/** The spellings of `X-Unit` the documents list: each unit as answers write it, and the ASCII forms of m³ and ft³. */
export const X_UNIT_SPELLINGS = [...UNITS, 'm3', 'ft3'] as const;

/**
 * `X-Timezone` and `X-Unit`: the headers of every consumption route. The documents list `X-Unit`'s
 * spellings as an enum (typed clients get a union); `requestedUnit` is what reads the header, and it
 * also takes any letter case and ISO-8859-1 bytes, so the schema stays a string for anything that parses with it.
 */
export const consumptionHeaders = timeZoneHeader.extend({
  'X-Unit': z
    .string()
    .min(1)
    .optional()
    .meta({
      enum: [...X_UNIT_SPELLINGS],
      description:
        `The unit to answer in: ${X_UNIT_VALUES}. \`m³\` and \`ft³\` may be sent as UTF-8 or ISO-8859-1 bytes. ` +
        "Absent: the device's own unit. Another value: 400. Not part of the signature. Costs stay the same money in any unit.",
      param: { example: 'gal' },
    }),
});

/** `unit` of an answer. */
export const volumeUnitSchema = z.string().meta({ description: "The unit of the volumes: `X-Unit`'s, or else the device's register unit." });
