/** One entry of a problem's `errors[]`: the field (dotted path) and what is wrong with it. */
export interface FieldError {
  field: string;
  message: string;
}

/** A management API answer that was not a success, or no answer at all (status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly errors: FieldError[] = [],
    readonly retryAfter?: number,
  ) {
    super(detail || code);
  }
}

/** The ApiError of a problem+json body (or of anything else the server sent with a failure status). */
export function problemFrom(status: number, body: unknown, retryAfter?: string | null): ApiError {
  const problem = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const errors = Array.isArray(problem.errors)
    ? problem.errors.filter((e): e is FieldError => typeof e?.field === 'string' && typeof e?.message === 'string')
    : [];
  const seconds = retryAfter ? Number(retryAfter) : undefined;
  return new ApiError(
    status,
    typeof problem.code === 'string' ? problem.code : `http_${status}`,
    typeof problem.detail === 'string' ? problem.detail : `The server answered ${status}.`,
    errors,
    seconds !== undefined && Number.isFinite(seconds) ? seconds : undefined,
  );
}

/**
 * The server's field errors by form field name. `prefix` is stripped first (`data.` for vault fields);
 * a path into a list (`allowed_cidrs.2`) belongs to the list's field. Errors no field of `known` takes
 * are returned under `''`, for the form's general message.
 */
export function fieldErrorsFor(errors: FieldError[], known: readonly string[], prefix = ''): Record<string, string> {
  const byField: Record<string, string> = {};
  for (const { field, message } of errors) {
    const path = field.startsWith(prefix) ? field.slice(prefix.length) : field;
    const name = known.find((k) => path === k || path.startsWith(`${k}.`)) ?? '';
    const text = name === '' && field !== 'body' ? `${field}: ${message}` : message;
    byField[name] = byField[name] ? `${byField[name]}; ${text}` : text;
  }
  return byField;
}

/** What to tell the admin about a failed call, in a sentence. */
export function describeError(error: unknown): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : 'Something went wrong.';
  if (error.status === 0) return 'The management API does not answer. Check your connection and try again.';
  if (error.status === 503) {
    const when = error.retryAfter ? ` Try again in ${error.retryAfter} s.` : ' Try again shortly.';
    return `A service the console needs is unavailable: ${error.detail}.${when}`;
  }
  if (error.status === 429) return `Too many attempts: ${error.detail}.`;
  return error.detail;
}
