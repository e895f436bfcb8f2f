import type { Readable } from 'node:stream';
import { ClientSecretCredential } from '@azure/identity';
import { BlobServiceClient, ContainerClient, type StoragePipelineOptions } from '@azure/storage-blob';
import type { Destination } from './destination';
import { classifyStorageError } from './storage-errors';

/** Blocks of 4 MiB, two in flight: what one upload holds in memory. */
const BLOCK_SIZE = 4 * 1024 * 1024;
const CONCURRENCY = 2;
const PIPELINE: StoragePipelineOptions = { retryOptions: { maxTries: 2, tryTimeoutInMs: 60_000 } };

/**
 * The container of an Azure entry's `connection_string`, which is one of:
 * - a shared-access (SAS) URL of the container (its last path segment is the
 *   container) or of the account;
 * - an account or container URL without a signature: the entry's tenant,
 *   client and secret sign in (Microsoft Entra ID);
 * - an account or shared-access connection string (`AccountName=...;AccountKey=...`).
 */
export function containerClientFor(
  identity: { tenant_id: string; client_id: string; client_secret: string; connection_string: string },
  container: string,
): ContainerClient {
  const text = identity.connection_string;
  if (/^https?:\/\//i.test(text)) {
    const url = new URL(text);
    const signed = url.searchParams.has('sig');
    const credential = signed ? undefined : new ClientSecretCredential(identity.tenant_id, identity.client_id, identity.client_secret);
    const segments = url.pathname.split('/').filter(Boolean);
    if (segments[segments.length - 1] === container) return new ContainerClient(text, credential, PIPELINE);
    return new BlobServiceClient(text, credential, PIPELINE).getContainerClient(container);
  }
  return BlobServiceClient.fromConnectionString(text, PIPELINE).getContainerClient(container);
}

/** An Azure Blob Storage container; data files are block blobs committed in one block list. */
export class AzureDestination implements Destination {
  constructor(private readonly container: ContainerClient) {}

  async upload(key: string, body: Readable, contentType: string): Promise<void> {
    try {
      await this.container.getBlockBlobClient(key).uploadStream(body, BLOCK_SIZE, CONCURRENCY, { blobHTTPHeaders: { blobContentType: contentType } });
    } catch (error) {
      throw classifyStorageError(error, 'Azure');
    }
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    try {
      await this.container.getBlockBlobClient(key).uploadData(body, { blobHTTPHeaders: { blobContentType: contentType } });
    } catch (error) {
      throw classifyStorageError(error, 'Azure');
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await this.container.getBlockBlobClient(key).delete();
    } catch (error) {
      throw classifyStorageError(error, 'Azure');
    }
  }

  close(): void {}
}
