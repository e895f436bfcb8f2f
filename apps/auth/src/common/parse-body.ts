import { validationFailed, type FieldError } from '@meter/http';
import type { z } from 'zod';

/** Validates a request body with its strict schema; every problem names its field. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (body === undefined || body === null) throw validationFailed([{ field: 'body', message: 'a JSON object is required' }]);
  // reportInput tells a missing field from a mistyped one; the input itself never reaches the answer.
  const parsed = schema.safeParse(body, { reportInput: true });
  if (parsed.success) return parsed.data;
  throw validationFailed(parsed.error.issues.flatMap(fieldErrors));
}

function fieldErrors(issue: z.core.$ZodIssue): FieldError[] {
  const at = fieldPath(issue.path);
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({ field: at ? `${at}.${key}` : key, message: 'is not a known field' }));
  }
  if (issue.code === 'invalid_type' && issue.input === undefined) return [{ field: at || 'body', message: 'is required' }];
  return [{ field: at || 'body', message: issue.message }];
}

/** `['scopes', 0]` -> `scopes[0]`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part)), '');
}
