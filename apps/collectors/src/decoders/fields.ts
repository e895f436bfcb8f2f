import { readAtSchema, registerValueSchema } from '@meter/contracts';
import type { z } from 'zod';

/** A register value as the bus takes it (a number >= 0 or a decimal string), or the reason it is not one. */
export function registerValue(value: unknown, field: string): { ok: true; value: number | string } | { ok: false; reason: string } {
  if (value === undefined || value === null) return { ok: false, reason: `${field}: no register value` };
  const parsed = registerValueSchema.safeParse(value);
  if (!parsed.success)
    return {
      ok: false,
      reason: `${field}: ${typeof value === 'number' || typeof value === 'string' ? parsed.error.issues[0].message : `must be a number, not ${typeName(value)}`}`,
    };
  return { ok: true, value: value as number | string };
}

/** An RFC 3339 time that exists, or the reason it is not one. */
export function timestamp(value: unknown, field: string): { ok: true; value: string } | { ok: false; reason: string } {
  if (typeof value !== 'string') return { ok: false, reason: `${field}: must be an RFC 3339 timestamp, not ${typeName(value)}` };
  const parsed = readAtSchema.safeParse(value);
  if (!parsed.success) return { ok: false, reason: `${field}: ${JSON.stringify(value.slice(0, 40))} ${parsed.error.issues[0].message}` };
  return { ok: true, value };
}

export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** The first issues of a zod error as `path: message; ...`. */
export function describeIssues(error: z.ZodError, prefix = '', single = false): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      // A single object the schema wrapped in an array has no index of its own.
      const path = [prefix, ...(single ? issue.path.slice(1) : issue.path).map(String)].filter(Boolean).join('.');
      if (issue.code === 'invalid_union' && path.split('.').at(-1) === 'value') return `${path}: must be a number >= 0 or a decimal string`;
      return `${path || 'body'}: ${issue.message}`;
    })
    .join('; ');
}
