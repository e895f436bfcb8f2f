import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Storage, type Bucket } from '@google-cloud/storage';
import type { Destination } from './destination';
import { StorageFailure } from './destination';
import { classifyStorageError } from './storage-errors';

/**
 * A Cloud Storage bucket through the entry's `credentials_json` (a service
 * account) and `project_id`. `apiEndpoint` (GCS_API_ENDPOINT) points at a
 * private endpoint; the service account still signs in there.
 */
export class GcsDestination implements Destination {
  private readonly bucket: Bucket;

  constructor(identity: { credentials_json: string; project_id: string }, bucket: string, apiEndpoint?: string) {
    let credentials: Record<string, unknown>;
    try {
      credentials = JSON.parse(identity.credentials_json) as Record<string, unknown>;
    } catch {
      throw new StorageFailure('access_denied', 'InvalidCredentialsJson', 'GCS');
    }
    const storage = new Storage({
      projectId: identity.project_id,
      credentials,
      // A service account of another universe than Google's names it; the client must agree.
      ...(typeof credentials.universe_domain === 'string' ? { universeDomain: credentials.universe_domain } : {}),
      ...(apiEndpoint ? { apiEndpoint, useAuthWithCustomEndpoint: true } : {}),
      retryOptions: { autoRetry: true, maxRetries: 1, totalTimeout: 60 },
    });
    this.bucket = storage.bucket(bucket);
  }

  async upload(key: string, body: Readable, contentType: string): Promise<void> {
    try {
      // One request (multipart, not resumable): the object appears only when the whole body arrived.
      await pipeline(body, this.bucket.file(key).createWriteStream({ resumable: false, contentType, metadata: { contentType } }));
    } catch (error) {
      throw classifyStorageError(error, 'GCS');
    }
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    try {
      await this.bucket.file(key).save(body, { resumable: false, contentType });
    } catch (error) {
      throw classifyStorageError(error, 'GCS');
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await this.bucket.file(key).delete();
    } catch (error) {
      throw classifyStorageError(error, 'GCS');
    }
  }

  close(): void {}
}
