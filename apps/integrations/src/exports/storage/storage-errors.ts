import type { ExportErrorCode } from '@meter/contracts';
import { StorageFailure } from './destination';

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
  'TimeoutError',
  'RequestTimeout',
  'REQUEST_SEND_ERROR',
]);

const ACCESS_CODES = new Set([
  'AccessDenied',
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'AuthorizationFailure',
  'AuthenticationFailed',
  'AuthorizationPermissionMismatch',
  'AuthorizationResourceTypeMismatch',
  'AuthorizationServiceMismatch',
  'AuthorizationProtocolMismatch',
  'AuthorizationSourceIPMismatch',
  'InsufficientAccountPermissions',
  'AccountIsDisabled',
  'InvalidToken',
  'ExpiredToken',
  'TokenRefreshRequired',
  'Forbidden',
  'Unauthorized',
]);

const MISSING_CODES = new Set(['NoSuchBucket', 'ContainerNotFound', 'ContainerBeingDeleted', 'NotFound']);

interface SdkError {
  name?: unknown;
  code?: unknown;
  Code?: unknown;
  errno?: unknown;
  statusCode?: unknown;
  status?: unknown;
  cause?: unknown;
  errors?: unknown;
  $metadata?: { httpStatusCode?: unknown };
}

/** The first code-like string an SDK error carries (its own `code`, `Code`, `name`, or that of its cause). */
function storageCodeOf(error: SdkError, depth = 0): string | undefined {
  for (const candidate of [error.Code, error.code]) {
    if (typeof candidate === 'string' && /^[A-Za-z_]{2,64}$/.test(candidate)) return candidate;
  }
  if (depth < 3 && typeof error.cause === 'object' && error.cause !== null) {
    const inner = storageCodeOf(error.cause as SdkError, depth + 1);
    if (inner) return inner;
  }
  if (depth < 3 && Array.isArray(error.errors)) {
    for (const inner of error.errors) {
      const code = typeof inner === 'object' && inner !== null ? storageCodeOf(inner as SdkError, depth + 1) : undefined;
      if (code) return code;
    }
  }
  if (typeof error.name === 'string' && /^[A-Za-z]{2,64}$/.test(error.name) && error.name !== 'Error') return error.name;
  return undefined;
}

function statusOf(error: SdkError): number | undefined {
  for (const candidate of [error.$metadata?.httpStatusCode, error.statusCode, error.status, error.code]) {
    if (typeof candidate === 'number' && candidate >= 100 && candidate < 600) return candidate;
  }
  return undefined;
}

/**
 * Classifies what an S3, Azure or GCS client threw: refused credentials or
 * permissions are `access_denied`, a missing bucket or container
 * `bucket_not_found`, no answer at all `destination_unreachable`, anything
 * else `internal`. Already classified failures pass through.
 */
export function classifyStorageError(error: unknown, storage: string): StorageFailure {
  if (error instanceof StorageFailure) return error;
  const e = (typeof error === 'object' && error !== null ? error : {}) as SdkError;
  const code = storageCodeOf(e);
  const status = statusOf(e);
  let kind: ExportErrorCode = 'internal';
  if (code && ACCESS_CODES.has(code)) kind = 'access_denied';
  else if (code && MISSING_CODES.has(code)) kind = 'bucket_not_found';
  else if (code && NETWORK_CODES.has(code)) kind = 'destination_unreachable';
  else if (status === 401 || status === 403) kind = 'access_denied';
  else if (status === 404) kind = 'bucket_not_found';
  return new StorageFailure(kind, code ?? (status !== undefined ? `HTTP ${status}` : 'an unknown error'), storage);
}
