import { CreateBucketCommand, HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';

/** Where the demo looks for a local S3 emulator (s3rver's defaults; `DEMO_S3_*` to point elsewhere, e.g. MinIO). */
const S3_ENDPOINT = process.env.DEMO_S3_ENDPOINT ?? 'http://127.0.0.1:4568';
const S3_ACCESS_KEY = process.env.DEMO_S3_ACCESS_KEY ?? 'S3RVER';
const S3_SECRET_KEY = process.env.DEMO_S3_SECRET_KEY ?? 'S3RVER';
const BUCKET = 'meter-demo';
const RUN_TIMEOUT_MS = 60_000;

interface Call {
  status: number;
  body: Record<string, unknown> & { [key: string]: any }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function call(managementUrl: string, token: string, method: string, path: string, body?: unknown): Promise<Call> {
  const response = await fetch(new URL(path, managementUrl), {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Call['body']) : {} };
}

/**
 * The demo's last step: with a local S3 emulator running, the organization's
 * S3 keys go into the vault, a nightly CSV export is activated, yesterday is
 * exported at once, and the demo prints where the files are. Without an
 * emulator (or without the integrations process) it says so and skips.
 */
export async function demoExport(managementUrl: string, token: string, say: (line?: string) => void): Promise<void> {
  say();
  const s3 = new S3Client({
    endpoint: S3_ENDPOINT,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: S3_ACCESS_KEY, secretAccessKey: S3_SECRET_KEY },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 1,
  });
  try {
    try {
      await s3.send(new HeadBucketCommand({ Bucket: BUCKET })).catch(async (error: { name?: string; $metadata?: { httpStatusCode?: number } }) => {
        if (error.$metadata?.httpStatusCode !== 404 && error.name !== 'NotFound') throw error;
        await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
      });
    } catch {
      say(
        `Batch export: skipped, no S3 emulator answers at ${S3_ENDPOINT}. Start one (npx s3rver -d /tmp/s3rver) or set DEMO_S3_ENDPOINT, DEMO_S3_ACCESS_KEY and DEMO_S3_SECRET_KEY, then run the demo again.`,
      );
      return;
    }
    const entry = await call(managementUrl, token, 'PATCH', '/organization-vault', {
      namespace: 'demo',
      type: 's3_identity',
      data: { access_key: S3_ACCESS_KEY, secret_key: S3_SECRET_KEY, end_point: S3_ENDPOINT, region: 'us-east-1' },
    });
    if (entry.status !== 200) throw new Error(`PATCH /organization-vault: HTTP ${entry.status} ${JSON.stringify(entry.body)}`);
    const integration = await call(managementUrl, token, 'POST', '/integrations', {
      type: 'batch_export',
      namespace: 'demo',
      storage_type: 's3_identity',
      destination: { bucket: BUCKET, prefix: 'demo/' },
      format: 'csv',
      time_zone: 'Europe/Madrid',
    });
    if (integration.status === 503) {
      say(`Batch export: skipped, the integrations service does not answer (${integration.body.code}).`);
      return;
    }
    if (integration.status !== 201) throw new Error(`POST /integrations: HTTP ${integration.status} ${JSON.stringify(integration.body)}`);
    const queued = await call(managementUrl, token, 'POST', `/integrations/${integration.body.id}/runs`, {});
    if (queued.status !== 202) throw new Error(`POST /integrations/{id}/runs: HTTP ${queued.status} ${JSON.stringify(queued.body)}`);
    const deadline = Date.now() + RUN_TIMEOUT_MS;
    let run: Call['body'] = queued.body;
    while (run.status === 'queued' || run.status === 'running') {
      if (Date.now() > deadline) throw new Error(`the export run ${queued.body.id} did not finish within ${RUN_TIMEOUT_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      run = (await call(managementUrl, token, 'GET', `/integrations/${integration.body.id}/runs/${queued.body.id}`)).body;
    }
    if (run.status !== 'succeeded') throw new Error(`the export run failed: ${JSON.stringify(run.error)}`);
    say(`Batch export ${integration.body.id} active: every night at 02:00 (Europe/Madrid) the previous day lands in s3://${BUCKET}/demo/ at ${S3_ENDPOINT}.`);
    say(`Yesterday, exported now (run ${run.id}):`);
    for (const file of run.files as { key: string; rows: number; bytes: number }[]) {
      say(`  s3://${BUCKET}/${file.key} (${file.rows} rows, ${file.bytes} bytes) and s3://${BUCKET}/${file.key.replace(/[^/]+$/, '_manifest.json')}`);
    }
  } finally {
    s3.destroy();
  }
}
