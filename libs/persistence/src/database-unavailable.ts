/** Socket errors of a connection that could not be made or was lost. */
const CONNECTION_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** What node-postgres (pg, pg-pool) says when the connection, not the query, failed; these errors carry no code. */
const CONNECTION_MESSAGES = [
  /^Connection terminated/, // unexpectedly, or due to connection timeout
  /^timeout exceeded when trying to connect/, // pg-pool's connectionTimeoutMillis
  /^Client has encountered a connection error and is not queryable/,
  /^Connection ended unexpectedly/,
  /^Query read timeout/,
];

/**
 * SQLSTATEs of a server that cannot serve now: connection exceptions (08),
 * insufficient resources (53: too many connections, disk full, out of memory),
 * and an administrator's or a crash's shutdown, or a server still starting
 * (57P01-57P03).
 */
function unavailableSqlState(code: string): boolean {
  return code.startsWith('08') || code.startsWith('53') || code === '57P01' || code === '57P02' || code === '57P03';
}

/**
 * True when `error` means Postgres could not answer (down, unreachable,
 * restarting, out of connections), as opposed to refusing the query itself.
 * Looks through TypeORM's QueryFailedError (`driverError`), `cause` and
 * AggregateError (a connect to each address of a host failed).
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 4 || typeof error !== 'object' || error === null) return false;
  const { code, message, driverError, cause, errors } = error as {
    code?: unknown;
    message?: unknown;
    driverError?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string' && (CONNECTION_ERRNOS.has(code) || (/^[0-9A-Z]{5}$/.test(code) && unavailableSqlState(code)))) return true;
  if (code === undefined && typeof message === 'string' && CONNECTION_MESSAGES.some((pattern) => pattern.test(message))) return true;
  if (Array.isArray(errors) && errors.some((e) => isDatabaseUnavailable(e, depth + 1))) return true;
  return isDatabaseUnavailable(driverError, depth + 1) || isDatabaseUnavailable(cause, depth + 1);
}
