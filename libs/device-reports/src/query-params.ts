import { z } from 'zod';
import { EPISODE_CODES } from '@meter/consumption';

/**
 * The query parameters of the gateway's signed routes and of the management
 * API's fleet routes, one schema each: checkQuery (@meter/http) validates a
 * query with them and the OpenAPI documents show them. A parameter arrives as
 * a string, or as an array when it is repeated (`?a=1&a=2`).
 */

/** Why a query parameter that must be one string is not: absent, or given more than once (`?a=1&a=2`). */
export function notOneValue(raw: unknown): string {
  return Array.isArray(raw) ? 'must be given once' : 'is required';
}

const DEVICE_ID = /^[1-9][0-9]{0,15}$/;

/** A device id's text as its number; anything else as it came, for the schema to refuse. */
const deviceIdText = (raw: unknown) => (typeof raw === 'string' && DEVICE_ID.test(raw) && Number.isSafeInteger(Number(raw)) ? Number(raw) : raw);

/** Device ids are positive integers that a JS number holds exactly. */
export const deviceIdParam = z.preprocess(
  deviceIdText,
  z
    .int({ error: (issue) => (Array.isArray(issue.input) ? notOneValue(issue.input) : 'must be a positive integer') })
    .min(1)
    .max(Number.MAX_SAFE_INTEGER),
);

/** A parameter that must be one string (its content is checked where it is used). */
export const oneStringParam = z.string({ error: (issue) => notOneValue(issue.input) });

/** A comma-separated list of 1..max device ids, in order, repeats kept. */
export function deviceIdListParam(max: number) {
  return z.preprocess(
    // Absent counts as empty: both are `is required`.
    (raw) => raw ?? '',
    z
      .string({ error: (issue) => `${notOneValue(issue.input)}: a comma-separated list of device ids` })
      .check((ctx) => {
        const problem = deviceIdListProblem(ctx.value, max);
        if (problem) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value });
      })
      .transform((raw) => raw.split(',').map((part) => Number(part.trim()))),
  );
}

function deviceIdListProblem(raw: string, max: number): string | undefined {
  if (raw.trim() === '') return 'is required: a comma-separated list of device ids';
  const parts = raw.split(',').map((part) => part.trim());
  if (parts.length > max) return `must list at most ${max} device ids`;
  const bad = parts.findIndex((part) => deviceIdText(part) === part);
  return bad === -1 ? undefined : `item ${bad + 1} (${JSON.stringify(parts[bad].slice(0, 20))}) must be a positive integer`;
}

/** A page size: an integer from 1 to max (repeated or not a number: the same answer). */
export function pageSizeParam(max: number) {
  const message = `must be an integer from 1 to ${max}`;
  return z.preprocess(
    (raw) => (typeof raw === 'string' && /^[0-9]{1,4}$/.test(raw) ? Number(raw) : raw),
    z.int({ error: message }).min(1, { error: message }).max(max, { error: message }),
  );
}

const ALERT_STATES = ['open', 'cleared', 'all'] as const;

/** `state` of the alert lists. */
export const alertStateParam = z.enum(ALERT_STATES, {
  error: (issue) => (typeof issue.input === 'string' ? 'must be open, cleared or all' : notOneValue(issue.input)),
});

/** `code` of the fleet's alert list: one episode code. */
export const episodeCodeParam = z.enum(EPISODE_CODES, {
  error: (issue) => (typeof issue.input === 'string' ? `must be one of ${EPISODE_CODES.join(', ')}` : notOneValue(issue.input)),
});

/** `q`: text to find, up to 100 characters. */
export const searchTextParam = z.string({ error: (issue) => notOneValue(issue.input) }).max(100, { error: 'must be at most 100 characters' });
