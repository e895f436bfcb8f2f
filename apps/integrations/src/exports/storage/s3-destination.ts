import type { Readable } from 'node:stream';
import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Destination } from './destination';
import { classifyStorageError } from './storage-errors';

/** Multipart part size: the smallest S3 allows, so an upload holds at most QUEUE_SIZE parts in memory. */
const PART_SIZE = 5 * 1024 * 1024;
const QUEUE_SIZE = 2;

/** AWS's own endpoints take virtual-hosted addressing; any other S3-compatible service gets path-style. */
export function isAwsEndpoint(endPoint: string): boolean {
  const host = new URL(endPoint).hostname;
  return host === 'amazonaws.com' || host.endsWith('.amazonaws.com') || host.endsWith('.amazonaws.com.cn');
}

/**
 * An S3 bucket through the entry's `end_point` and `region`. Non-AWS
 * endpoints are addressed path-style, and checksums are sent only where the
 * operation requires them (S3-compatible services reject the newer defaults).
 */
export class S3Destination implements Destination {
  private readonly client: S3Client;

  constructor(
    identity: { access_key: string; secret_key: string; end_point: string; region: string },
    private readonly bucket: string,
  ) {
    this.client = new S3Client({
      endpoint: identity.end_point,
      region: identity.region,
      credentials: { accessKeyId: identity.access_key, secretAccessKey: identity.secret_key },
      forcePathStyle: !isAwsEndpoint(identity.end_point),
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 2,
      requestHandler: { connectionTimeout: 5000, requestTimeout: 60_000 },
    });
  }

  async upload(key: string, body: Readable, contentType: string): Promise<void> {
    try {
      const upload = new Upload({
        client: this.client,
        params: { Bucket: this.bucket, Key: key, Body: body, ContentType: contentType },
        partSize: PART_SIZE,
        queueSize: QUEUE_SIZE,
        // A failed upload is aborted, so no parts are left behind (and nothing replaces the object).
        leavePartsOnError: false,
      });
      await upload.done();
    } catch (error) {
      throw classifyStorageError(error, 'S3');
    }
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    try {
      await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }));
    } catch (error) {
      throw classifyStorageError(error, 'S3');
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      throw classifyStorageError(error, 'S3');
    }
  }

  close(): void {
    this.client.destroy();
  }
}
