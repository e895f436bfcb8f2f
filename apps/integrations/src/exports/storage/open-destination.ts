import type { ExportStorageType } from '@meter/contracts';
import { AzureDestination, containerClientFor } from './azure-destination';
import type { Destination } from './destination';
import { StorageFailure } from './destination';
import { GcsDestination } from './gcs-destination';
import { S3Destination } from './s3-destination';

/** The destination client for an opened vault entry's data; the data lives only inside the client. */
export function openDestination(type: ExportStorageType, data: Record<string, string>, bucket: string, options: { gcsApiEndpoint?: string }): Destination {
  try {
    switch (type) {
      case 's3_identity':
        return new S3Destination(data as { access_key: string; secret_key: string; end_point: string; region: string }, bucket);
      case 'azure_identity':
        return new AzureDestination(
          containerClientFor(data as { tenant_id: string; client_id: string; client_secret: string; connection_string: string }, bucket),
        );
      case 'gcs_identity':
        return new GcsDestination(data as { credentials_json: string; project_id: string }, bucket, options.gcsApiEndpoint);
    }
  } catch (error) {
    if (error instanceof StorageFailure) throw error;
    // A client that cannot even be made from the entry (a connection string it refuses): the credentials are the problem.
    throw new StorageFailure('access_denied', 'InvalidIdentity', type);
  }
}
