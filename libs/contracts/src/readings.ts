import { z } from 'zod';
import { ORG_ID } from './ids';
import { isValidTimeZone, parseUnit, UNITS, type Tariff } from '@meter/consumption';

/**
 * Messages collectors publish (docs/read-model.md). One schema per message:
 * it validates the bus payload and types the ingest code.
 *
 * - `meter.readings.<org_id>.<device_id>`: one reading or an array of them.
 * - `meter.devices.<org_id>.<device_id>`: register or update a device.
 */
/** Device ids are positive integers that JS numbers and Postgres bigint hold exactly. */
export const DEVICE_ID = /^[1-9][0-9]{0,15}$/;
/** Readings per message; a collector sends up to this many in one array. */
export const MAX_READINGS_PER_MESSAGE = 1000;

export const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;
export const DECIMAL = /^\d{1,15}(\.\d{1,15})?$/;
/** Larger register values lose integer precision in a double. */
export const MAX_VALUE = 1e15;

/**
 * Epoch ms of a timestamp that already matches RFC3339, or undefined when
 * the date and time do not exist. The only letters RFC3339 lets through are
 * T/t and Z/z, so an upper-case text is used as it is.
 */
export function rfc3339Ms(text: string): number | undefined {
  const plain = plainUtcMs(text);
  if (plain !== undefined) return plain;
  const lower = text.charCodeAt(10) === 116 || text.charCodeAt(text.length - 1) === 122;
  const ms = Date.parse(lower ? text.toUpperCase() : text);
  return Number.isFinite(ms) && realCalendarFields(text) ? ms : undefined;
}

const DAY_MS = 86_400_000;
const digit = (text: string, at: number) => text.charCodeAt(at) - 48;
const twoDigits = (text: string, at: number) => digit(text, at) * 10 + digit(text, at + 1);

/**
 * The form collectors send, `YYYY-MM-DDTHH:MM:SSZ` or `...SS.sssZ` (upper-case
 * T and Z, three fraction digits or none) with a year from 1970 and a day up
 * to 28, always exists and means the instant the ECMAScript date-time format
 * defines: computed here without Date.parse. Undefined for every other text,
 * which then takes Date.parse. Only for text that already matches RFC3339.
 */
function plainUtcMs(text: string): number | undefined {
  const n = text.length;
  if ((n !== 20 && n !== 24) || text.charCodeAt(10) !== 84 || text.charCodeAt(n - 1) !== 90) return undefined;
  const year = twoDigits(text, 0) * 100 + twoDigits(text, 2);
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  const hour = twoDigits(text, 11);
  const minute = twoDigits(text, 14);
  const second = twoDigits(text, 17);
  if (year < 1970 || month < 1 || month > 12 || day < 1 || day > 28 || hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = n === 24 ? digit(text, 20) * 100 + twoDigits(text, 21) : 0;
  return daysSinceEpoch(year, month, day) * DAY_MS + ((hour * 60 + minute) * 60 + second) * 1000 + ms;
}

/** Days from 1970-01-01 to a date of the proleptic Gregorian calendar (H. Hinnant's days_from_civil, years >= 0). */
function daysSinceEpoch(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

export const readAtSchema = z
  .string()
  .regex(RFC3339, 'must be an RFC 3339 timestamp with Z or an offset')
  .transform((text, ctx) => {
    const ms = rfc3339Ms(text);
    if (ms === undefined) {
      ctx.addIssue({ code: 'custom', message: 'is not a real date and time' });
      return z.NEVER;
    }
    return ms;
  });

/** Date.parse rolls 02-30 over into March; the fields must exist as written. */
export function realCalendarFields(text: string): boolean {
  // Date.parse refuses minutes, seconds and months out of range; it takes hour 24 and rolls a day past the month's end over.
  const digits = (at: number) => (text.charCodeAt(at) - 48) * 10 + (text.charCodeAt(at + 1) - 48);
  if (digits(8) <= 28 && digits(11) <= 23) return true;
  const [year, month, day, hour, minute, second] = [0, 5, 8, 11, 14, 17].map((at) => Number(text.slice(at, at + (at === 0 ? 4 : 2))));
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return month >= 1 && month <= 12 && day >= 1 && day <= lastDay && hour <= 23 && minute <= 59 && second <= 59;
}

/** A register value as a number already parsed from a number or a DECIMAL string. */
export const isRegisterValue = (n: number) => Number.isFinite(n) && n >= 0 && n < MAX_VALUE;

export const registerValueSchema = z
  .union([z.number(), z.string().regex(DECIMAL, 'must be a non-negative decimal string')])
  .transform((raw) => (typeof raw === 'number' ? raw : Number(raw)))
  .refine(isRegisterValue, `must be a number >= 0 and < ${MAX_VALUE}`);

export const MIN_CHANNEL = 1;
export const MAX_CHANNEL = 64;
/** The channel of an item that names none. */
export const DEFAULT_CHANNEL = 1;

export const readingMessageItem = z.object({
  read_at: readAtSchema,
  value: registerValueSchema,
  channel: z.number().int().min(MIN_CHANNEL).max(MAX_CHANNEL).default(DEFAULT_CHANNEL),
});

/**
 * The payload of `meter.readings.<org>.<device>`; always an array after parsing.
 * `readReadingMessage` (reading-message-reader.ts) accepts exactly what this
 * schema accepts, without zod's cost per item; its spec proves it.
 */
export const readingMessage = z.preprocess(
  (payload) => (Array.isArray(payload) ? payload : [payload]),
  z.array(readingMessageItem).min(1).max(MAX_READINGS_PER_MESSAGE),
);

export type ReadingMessageItem = z.output<typeof readingMessageItem>;

/** A register unit (`m³`, `L`, `gal`, `ft³`, `CCF`; ASCII `m3`/`ft3` and any letter case are read as those). */
export const unitSchema = z
  .string()
  .max(20)
  .transform((text, ctx) => {
    const unit = parseUnit(text);
    if (unit === undefined) {
      ctx.addIssue({ code: 'custom', message: `must be one of ${UNITS.join(', ')}` });
      return z.NEVER;
    }
    return unit;
  });

const MAX_PRICE = 1e9;
const MAX_VOLUME = 1e12;

/**
 * A tariff (docs/consumption.md): a standing charge per day and increasing
 * monthly blocks, each ending at a cumulative volume in the device's unit,
 * the last one open (`up_to: null`).
 */
export const tariffSchema = z
  .object({
    currency_symbol: z.string().min(1).max(8),
    standing_charge_per_day: z.number().min(0).max(MAX_PRICE),
    blocks: z
      .array(z.object({ up_to: z.number().gt(0).max(MAX_VOLUME).nullable(), price_per_unit: z.number().min(0).max(MAX_PRICE) }))
      .min(1)
      .max(20),
  })
  .superRefine((tariff, ctx) => {
    tariff.blocks.forEach((block, i) => {
      const last = i === tariff.blocks.length - 1;
      if (last && block.up_to !== null) ctx.addIssue({ code: 'custom', path: ['blocks', i, 'up_to'], message: 'the last block must be open (null)' });
      if (!last && block.up_to === null) ctx.addIssue({ code: 'custom', path: ['blocks', i, 'up_to'], message: 'only the last block may be open (null)' });
      const before = i > 0 ? tariff.blocks[i - 1].up_to : null;
      if (!last && i > 0 && before !== null && block.up_to !== null && block.up_to <= before) {
        ctx.addIssue({ code: 'custom', path: ['blocks', i, 'up_to'], message: "must be above the previous block's up_to" });
      }
    });
  }) satisfies z.ZodType<Tariff>;

/**
 * A device's radio ids (docs/collectors.md, "Devices by their radio ids"), each
 * unique within the organization: a member absent keeps the stored id, `null`
 * removes it, a value sets it (and takes it from another device that had it).
 */
export const externalIdsSchema = z.strictObject({
  dev_eui: z
    .string()
    .regex(/^[0-9A-Fa-f]{16}$/, 'must be 16 hex digits (a LoRaWAN DevEUI)')
    .transform((text) => text.toLowerCase())
    .nullable()
    .optional(),
  wmbus_id: z
    .string()
    .regex(/^\d{8}$/, 'must be 8 digits (a wM-Bus id)')
    .nullable()
    .optional(),
});
export type ExternalIds = z.output<typeof externalIdsSchema>;

export const deviceMessage = z.object({
  name: z.string().trim().min(1).max(200),
  channels: z.number().int().min(1).max(64).optional(),
  activated_at: readAtSchema.optional(),
  serie: z.string().min(1).max(40).optional(),
  unit: unitSchema.optional(),
  decimal_places: z.number().int().min(0).max(6).optional(),
  time_zone: z.string().refine(isValidTimeZone, 'must be an IANA time zone name').optional(),
  price_per_unit: z.number().min(0).max(MAX_PRICE).optional(),
  currency_symbol: z.string().min(1).max(8).optional(),
  /** Replaces price_per_unit when present; `null` removes the device's tariff. */
  tariff: tariffSchema.nullable().optional(),
  /** Alert thresholds (docs/alerts-and-webhooks.md), in the device's unit. */
  leak_threshold_per_hour: z.number().min(0).max(MAX_VOLUME).optional(),
  /** No default: BURST is off until set; `null` turns it off again. */
  burst_threshold_per_hour: z.number().gt(0).max(MAX_VOLUME).nullable().optional(),
  no_flow_days: z.number().int().min(1).max(366).optional(),
  max_silence_hours: z
    .number()
    .int()
    .min(1)
    .max(24 * 366)
    .optional(),
  external_ids: externalIdsSchema.optional(),
});

export type DeviceMessage = z.output<typeof deviceMessage>;

export type MeterSubject = { kind: 'readings' | 'devices' | 'alarms'; orgId: string; deviceId: number } | { kind: 'invalid'; reason: string };

const METER_SUBJECT_KINDS = new Set(['readings', 'devices', 'alarms']);

/** Routes an unprefixed subject `meter.<readings|devices|alarms>.<org>.<device>`. */
export function parseMeterSubject(subject: string): MeterSubject {
  const parts = subject.split('.');
  if (parts.length !== 4 || parts[0] !== 'meter' || !METER_SUBJECT_KINDS.has(parts[1])) {
    return {
      kind: 'invalid',
      reason: `subject must be meter.readings.<org_id>.<device_id>, meter.devices.<org_id>.<device_id> or meter.alarms.<org_id>.<device_id>`,
    };
  }
  if (!ORG_ID.test(parts[2])) return { kind: 'invalid', reason: 'org_id must be 1..64 characters of [A-Za-z0-9_-]' };
  if (!DEVICE_ID.test(parts[3]) || !Number.isSafeInteger(Number(parts[3]))) {
    return { kind: 'invalid', reason: 'device_id must be a positive integer' };
  }
  return { kind: parts[1] as 'readings' | 'devices' | 'alarms', orgId: parts[2], deviceId: Number(parts[3]) };
}

/** Headers of a dead letter on `meter.deadletter.<readings|devices|alarms|unknown>`. */
export const DEAD_LETTER_HEADERS = {
  reason: 'Meter-Dead-Letter-Reason',
  subject: 'Meter-Original-Subject',
  stream: 'Meter-Original-Stream',
  sequence: 'Meter-Original-Sequence',
} as const;
