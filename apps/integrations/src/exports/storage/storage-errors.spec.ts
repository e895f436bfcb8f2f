import { describe, expect, it } from 'vitest';
import { StorageFailure } from './destination';
import { classifyStorageError } from './storage-errors';

describe('classifyStorageError', () => {
  it.each([
    [{ name: 'AccessDenied', $metadata: { httpStatusCode: 403 } }, 'access_denied', 'AccessDenied'],
    [{ name: 'SignatureDoesNotMatch', Code: 'SignatureDoesNotMatch' }, 'access_denied', 'SignatureDoesNotMatch'],
    [{ name: 'NoSuchBucket', $metadata: { httpStatusCode: 404 } }, 'bucket_not_found', 'NoSuchBucket'],
    [{ name: 'RestError', code: 'ContainerNotFound', statusCode: 404 }, 'bucket_not_found', 'ContainerNotFound'],
    [{ name: 'RestError', code: 'AuthorizationPermissionMismatch', statusCode: 403 }, 'access_denied', 'AuthorizationPermissionMismatch'],
    [{ name: 'ApiError', code: 403 }, 'access_denied', 'ApiError'],
    [{ name: 'ApiError', code: 404 }, 'bucket_not_found', 'ApiError'],
    [Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }), 'destination_unreachable', 'ECONNREFUSED'],
    [{ name: 'AggregateError', errors: [{ code: 'ECONNREFUSED' }] }, 'destination_unreachable', 'ECONNREFUSED'],
    [{ name: 'TypeError', cause: { code: 'ENOTFOUND' } }, 'destination_unreachable', 'ENOTFOUND'],
    [{ name: 'InternalError', $metadata: { httpStatusCode: 500 } }, 'internal', 'InternalError'],
    ['boom', 'internal', 'an unknown error'],
  ])('%j -> %s (%s)', (error, code, storageCode) => {
    const failure = classifyStorageError(error, 'S3');
    expect(failure).toBeInstanceOf(StorageFailure);
    expect(failure.code).toBe(code);
    expect(failure.storageCode).toBe(storageCode);
  });

  it('never carries the SDK message, which may quote what was sent', () => {
    const failure = classifyStorageError(Object.assign(new Error('bad key SECRET-abc'), { code: 'AuthenticationFailed' }), 'Azure');
    expect(failure.message).toBe('Azure answered AuthenticationFailed');
  });
});
