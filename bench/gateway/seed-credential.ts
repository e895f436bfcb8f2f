import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { BusNames, platformStreams } from '@meter/contracts';
import type { KeyRing } from '@meter/crypto';
import { connectNats, ensureStream } from '@meter/messaging';
import { credentialCreatedEvent, publishAuthEvent } from '../../test/harness/credential-events';

/** Publishes a credential.created event the way the auth relay does, so the gateway learns a credential without the auth service. */
export async function seedCredential(natsUrl: string, bus: BusNames, ring: KeyRing) {
  const nc = await connectNats(natsUrl, 'bench-gateway');
  try {
    await ensureStream(await jetstreamManager(nc), platformStreams(bus).authEvents);
    const { event, credential } = credentialCreatedEvent(ring, { orgId: `bench_${randomBytes(4).toString('hex')}`, name: 'bench' });
    await publishAuthEvent(jetstream(nc), bus, event);
    const { accessKey, secretKey, orgId } = credential;
    return { accessKey, secretKey, orgId };
  } finally {
    await nc.drain();
  }
}

/** The bench's streams go when it ends; its Redis keys expire within a minute on their own. */
export async function removeStreams(natsUrl: string, bus: BusNames): Promise<void> {
  const nc = await connectNats(natsUrl, 'bench-gateway-cleanup');
  try {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(platformStreams(bus).authEvents.name).catch(() => false);
  } finally {
    await nc.drain();
  }
}

/** Devices of the organization straight in the read model, so `GET /meter/v1/devices` answers a real page. */
export async function seedDevices(databaseUrl: string, orgId: string, count: number): Promise<void> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query(
      `INSERT INTO ingest.devices (org_id, device_id, name, channels, activated_at)
       SELECT $1, d, 'Meter ' || d, 1 + d % 2, timestamptz '2026-01-01' + d * interval '1 day' FROM generate_series(1, $2::int) AS d
       ON CONFLICT DO NOTHING`,
      [orgId, count],
    );
  } finally {
    await db.end();
  }
}
