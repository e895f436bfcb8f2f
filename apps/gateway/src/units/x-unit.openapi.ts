import { z } from 'zod';
import { UNITS } from '@meter/consumption';
import { problemThrownBy, type ProblemExample } from '@meter/http';
import { timeZoneHeader } from '../read-model/request-params.openapi';
import { requestedUnit, X_UNIT_VALUES } from './x-unit';

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

export const INVALID_UNIT: ProblemExample = {
  summary: 'X-Unit: kWh',
  problem: problemThrownBy(() => requestedUnit('kWh')),
};
