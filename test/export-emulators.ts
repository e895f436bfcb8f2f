import { spawn } from 'node:child_process';
import { createHash, createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BlobServiceClient, ContainerSASPermissions } from '@azure/storage-blob';
import { CreateBucketCommand, DeleteBucketCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { CRC32C } from '@google-cloud/storage';
import S3rver from 's3rver';
import { eventually, freePort } from '@meter/testing';

/**
 * The storages the export tests write to, started from npm packages on free
 * ports with temporary directories: s3rver (a real S3 protocol server),
 * Azurite (Azure Blob Storage) and, since no GCS emulator installs from npm,
 * a small Cloud Storage double that checks what the client library sends.
 */

export interface S3Emulator {
  endpoint: string;
  /** s3rver's own key pair: the only one it accepts */
  accessKey: string;
  secretKey: string;
  client: S3Client;
  createBucket(name: string): Promise<void>;
  deleteBucket(name: string): Promise<void>;
  get(bucket: string, key: string): Promise<Buffer | undefined>;
  keys(bucket: string): Promise<string[]>;
  stop(): Promise<void>;
}

export async function startS3(): Promise<S3Emulator> {
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'));
  const port = await freePort();
  const server = new S3rver({ port, address: '127.0.0.1', directory, silent: true });
  await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return {
    endpoint,
    accessKey: 'S3RVER',
    secretKey: 'S3RVER',
    client,
    createBucket: async (name) => void (await client.send(new CreateBucketCommand({ Bucket: name }))),
    deleteBucket: async (name) => void (await client.send(new DeleteBucketCommand({ Bucket: name }))),
    async get(bucket, key) {
      try {
        const response = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return Buffer.from(await response.Body!.transformToByteArray());
      } catch (error) {
        if ((error as { name?: string }).name === 'NoSuchKey') return undefined;
        throw error;
      }
    },
    async keys(bucket) {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (listed.Contents ?? []).map((o) => o.Key!).sort();
    },
    async stop() {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** Azurite's development account and its published key. */
const AZURITE_ACCOUNT = 'devstoreaccount1';
const AZURITE_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

export interface AzureEmulator {
  /** a shared-access (SAS) URL of the container, with the permissions asked for */
  containerSasUrl(container: string, permissions: string): Promise<string>;
  createContainer(name: string): Promise<void>;
  get(container: string, name: string): Promise<Buffer | undefined>;
  names(container: string): Promise<string[]>;
  stop(): Promise<void>;
}

export async function startAzurite(): Promise<AzureEmulator> {
  const location = mkdtempSync(join(tmpdir(), 'azurite-'));
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      require.resolve('azurite/dist/src/blob/main.js'),
      '--blobHost',
      '127.0.0.1',
      '--blobPort',
      String(port),
      '--location',
      location,
      '--silent',
      '--disableTelemetry',
      '--skipApiVersionCheck',
    ],
    { stdio: 'ignore' },
  );
  const connectionString =
    `DefaultEndpointsProtocol=http;AccountName=${AZURITE_ACCOUNT};AccountKey=${AZURITE_KEY};` + `BlobEndpoint=http://127.0.0.1:${port}/${AZURITE_ACCOUNT};`;
  const service = BlobServiceClient.fromConnectionString(connectionString);
  await eventually(
    async () => {
      await service.getProperties();
      return true;
    },
    30_000,
    'Azurite answering',
  );
  return {
    async containerSasUrl(container, permissions) {
      return service.getContainerClient(container).generateSasUrl({
        permissions: ContainerSASPermissions.parse(permissions),
        expiresOn: new Date(Date.now() + 3600_000),
      });
    },
    createContainer: async (name) => void (await service.getContainerClient(name).createIfNotExists()),
    async get(container, name) {
      const blob = service.getContainerClient(container).getBlobClient(name);
      if (!(await blob.exists())) return undefined;
      return blob.downloadToBuffer();
    },
    async names(container) {
      const names: string[] = [];
      for await (const blob of service.getContainerClient(container).listBlobsFlat()) names.push(blob.name);
      return names.sort();
    },
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.once('exit', resolve)));
      rmSync(location, { recursive: true, force: true });
    },
  };
}

/**
 * A stand-in for the Cloud Storage JSON API (not an emulator): it keeps
 * objects in memory and checks that each request carries a bearer token
 * the service account signed (RS256, the key of `credentials_json`), for
 * its client email. `requests` records what the library sent.
 */
export interface GcsDouble {
  apiEndpoint: string;
  /** a service account document for credentials_json */
  credentialsJson: string;
  buckets: Map<string, Map<string, { body: Buffer; contentType: string }>>;
  requests: { method: string; path: string; authorized: boolean }[];
  stop(): Promise<void>;
}

export async function startGcsDouble(): Promise<GcsDouble> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const clientEmail = 'meter-export@meter-test.iam.gserviceaccount.com';
  const credentialsJson = JSON.stringify({
    type: 'service_account',
    project_id: 'meter-test',
    private_key_id: 'key-1',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: clientEmail,
    client_id: '1234567890',
    // Not Google's universe: the library signs its own token instead of fetching one from Google.
    universe_domain: 'meter-test.example',
  });
  const verifyKey = createPublicKey(publicKey.export({ type: 'spki', format: 'pem' }));
  const buckets = new Map<string, Map<string, { body: Buffer; contentType: string }>>();
  const requests: GcsDouble['requests'] = [];

  const authorized = (req: IncomingMessage): boolean => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!token) return false;
    const [header, payload, signature] = token.split('.');
    if (!signature) return false;
    const ok = verify('RSA-SHA256', Buffer.from(`${header}.${payload}`), verifyKey, Buffer.from(signature, 'base64url'));
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { iss?: string; sub?: string; exp?: number };
    return ok && claims.iss === clientEmail && claims.sub === clientEmail && (claims.exp ?? 0) * 1000 > Date.now();
  };
  const send = (res: import('node:http').ServerResponse, status: number, body?: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body === undefined ? '' : JSON.stringify(body));
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const ok = authorized(req);
      requests.push({ method: req.method ?? '', path: url.pathname, authorized: ok });
      if (!ok) return send(res, 401, { error: { code: 401, message: 'Invalid Credentials', errors: [{ reason: 'authError' }] } });
      const upload = /^\/upload\/storage\/v1\/b\/([^/]+)\/o$/.exec(url.pathname);
      const object = /^\/storage\/v1\/b\/([^/]+)\/o\/(.+)$/.exec(url.pathname);
      const bucketName = decodeURIComponent((upload ?? object)?.[1] ?? '');
      const bucket = buckets.get(bucketName);
      if (!bucket) return send(res, 404, { error: { code: 404, message: 'The specified bucket does not exist.', errors: [{ reason: 'notFound' }] } });
      if (upload && req.method === 'POST' && url.searchParams.get('uploadType') === 'multipart') {
        const { metadata, body, contentType } = multipartRelated(req.headers['content-type'] ?? '', Buffer.concat(chunks));
        const name = String(metadata.name ?? url.searchParams.get('name'));
        bucket.set(name, { body, contentType });
        return send(res, 200, {
          kind: 'storage#object',
          name,
          bucket: bucketName,
          size: String(body.length),
          contentType,
          md5Hash: createHash('md5').update(body).digest('base64'),
          crc32c: crc32cOf(body),
          generation: String(Date.now()),
        });
      }
      if (object && req.method === 'DELETE') {
        const name = decodeURIComponent(object[2]);
        if (!bucket.delete(name)) return send(res, 404, { error: { code: 404, message: 'No such object', errors: [{ reason: 'notFound' }] } });
        res.writeHead(204).end();
        return;
      }
      send(res, 400, { error: { code: 400, message: `the double does not serve ${req.method} ${url.pathname}` } });
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    apiEndpoint: `http://127.0.0.1:${port}`,
    credentialsJson,
    buckets,
    requests,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function crc32cOf(body: Buffer): string {
  const crc = new CRC32C();
  crc.update(body);
  return crc.toString();
}

/** The two parts of a `multipart/related` upload: the object's JSON metadata, then its bytes. */
function multipartRelated(contentType: string, raw: Buffer): { metadata: Record<string, unknown>; body: Buffer; contentType: string } {
  const boundary = /boundary="?([^";]+)"?/.exec(contentType)?.[1];
  if (!boundary) throw new Error('no multipart boundary');
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Buffer[] = [];
  let at = raw.indexOf(delimiter);
  while (at !== -1) {
    const next = raw.indexOf(delimiter, at + delimiter.length);
    if (next === -1) break;
    parts.push(raw.subarray(at + delimiter.length + 2, next - 2));
    at = next;
  }
  const split = (part: Buffer) => {
    const end = part.indexOf('\r\n\r\n');
    return { headers: part.subarray(0, end).toString(), body: part.subarray(end + 4) };
  };
  const [meta, content] = parts.map(split);
  return {
    metadata: JSON.parse(meta.body.toString()) as Record<string, unknown>,
    body: content.body,
    contentType: /content-type:\s*([^\r\n]+)/i.exec(content.headers)?.[1] ?? '',
  };
}
