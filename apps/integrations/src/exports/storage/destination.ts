import type { Readable } from 'node:stream';
import type { ExportErrorCode } from '@meter/contracts';

/**
 * Where an integration writes: an S3 bucket, an Azure container or a GCS
 * bucket, reached with the organization's own vault entry. Every write is
 * atomic for readers (one PUT, or a multipart upload or block list that only
 * becomes the object when complete), so an object is never half-written.
 */
export interface Destination {
  /** Streams a body of unknown length to `key`, replacing what was there. */
  upload(key: string, body: Readable, contentType: string): Promise<void>;
  /** Writes a small object. */
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  delete(key: string): Promise<void>;
  /** Lets go of connections (and of the credentials it was made with). */
  close(): void;
}

/**
 * A storage failure in the words runs report (docs/exports.md, "Failures"):
 * the contract's code, and the storage's own error code for people. Never a
 * message of the storage or the SDK, which could quote what was sent.
 */
export class StorageFailure extends Error {
  constructor(
    readonly code: ExportErrorCode,
    /** The storage's own error code (`AccessDenied`, `ContainerNotFound`, `ECONNREFUSED`, ...). */
    readonly storageCode: string,
    readonly storage: string,
  ) {
    super(`${storage} answered ${storageCode}`);
    this.name = 'StorageFailure';
  }
}
