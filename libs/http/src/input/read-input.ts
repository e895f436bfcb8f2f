import type { z } from 'zod';
import { validationFailed, type FieldError } from '../problem';

export type InputResult<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

export interface InputOptions {
  /** What a field the schema does not know is told (default `is not a known field`). */
  unknownField?: (field: string) => string;
  /** Name fields the schema does not know before the rest of their object's problems (the order some answers always had). */
  unknownFieldsFirst?: boolean;
  /**
   * Tell an unknown field what its object schema's `error` says for `unrecognized_keys`
   * (e.g. `is not a field of s3_identity`), when it says something; `unknownField` otherwise.
   */
  unknownFieldsNamedBySchema?: boolean;
}

/** What zod's issue carries when the object schema gave no message of its own for unknown fields. */
const NO_UNKNOWN_FIELD_MESSAGE = '\u0000unknown field';

/**
 * The one input pipe: validates a request body (or an RPC payload) with its
 * zod schema and names every problem's field, `is required` for a missing
 * one, the schema's own message otherwise.
 */
export function readInput<S extends z.ZodType>(schema: S, input: unknown, options: InputOptions = {}): InputResult<z.output<S>> {
  // reportInput tells a missing field from a mistyped one; the input itself never reaches the answer.
  const parsed = schema.safeParse(input, {
    reportInput: true,
    // Asked only when the schema's own `error` has nothing to say.
    error: (issue) => (issue.code === 'unrecognized_keys' ? NO_UNKNOWN_FIELD_MESSAGE : undefined),
  });
  if (parsed.success) return { ok: true, value: parsed.data };
  const issues = options.unknownFieldsFirst ? unknownFieldsFirst(parsed.error.issues) : parsed.error.issues;
  return { ok: false, errors: issues.flatMap((issue) => fieldErrors(issue, options)) };
}

/** readInput, throwing the 400 `validation_failed` answer. */
export function checkInput<S extends z.ZodType>(schema: S, input: unknown, options?: InputOptions): z.output<S> {
  const result = readInput(schema, input, options);
  if (!result.ok) throw validationFailed(result.errors);
  return result.value;
}

function fieldErrors(issue: z.core.$ZodIssue, options: InputOptions): FieldError[] {
  const at = fieldPath(issue.path);
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => {
      const field = at ? `${at}.${key}` : key;
      if (options.unknownFieldsNamedBySchema && issue.message !== NO_UNKNOWN_FIELD_MESSAGE) return { field, message: issue.message };
      return { field, message: options.unknownField?.(field) ?? 'is not a known field' };
    });
  }
  if (issue.input === undefined && issue.path.length > 0) return [{ field: at, message: 'is required' }];
  return [{ field: at || 'body', message: issue.message }];
}

/** Each object's unknown fields before the other problems within it (zod reports them last). */
function unknownFieldsFirst(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  const ordered: z.core.$ZodIssue[] = issues.filter((issue) => issue.code !== 'unrecognized_keys');
  for (const unknown of issues.filter((issue) => issue.code === 'unrecognized_keys')) {
    const within = (issue: z.core.$ZodIssue) => unknown.path.every((part, i) => issue.path[i] === part);
    const first = ordered.findIndex(within);
    ordered.splice(first === -1 ? ordered.length : first, 0, unknown);
  }
  return ordered;
}

/** `['scopes', 0]` -> `scopes[0]`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part)), '');
}

/**
 * A query string (or path parameters) read with its schema, throwing the 400
 * `validation_failed` answer of its first problem in the schema's order: the
 * gateway's answers have always named one parameter.
 */
export function checkQuery<S extends z.ZodType>(schema: S, query: unknown): z.output<S> {
  const result = readInput(schema, query ?? {});
  if (!result.ok) throw validationFailed(result.errors.slice(0, 1));
  return result.value;
}
