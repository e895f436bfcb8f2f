import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { intervalsFromReadings, type Reading } from '@meter/consumption';
import { platformStreams } from '@meter/contracts';
import { connectNats } from '@meter/messaging';
import { eventually, freePort, isolatedInfra, PlatformProcess, startReadyApp, TcpProxy, type IsolatedInfra } from '@meter/testing';

const H = 3600_000;
const T0 = Date.UTC(2026, 10, 1);

describe('ingest while Postgres is unreachable', () => {
  let infra: IsolatedInfra;
  let proxy: TcpProxy;
  let ingest: PlatformProcess;
  let nc: NatsConnection;
  let db: Client;

  beforeAll(async () => {
    infra = await isolatedInfra();
    proxy = await TcpProxy.to(infra.databaseUrl, await freePort());
    ({ process: ingest } = await startReadyApp('ingest', infra.env({ DATABASE_URL: proxy.via(infra.databaseUrl) })));
    nc = await connectNats(infra.natsUrl, 'outage-test');
    db = new Client({ connectionString: infra.databaseUrl });
    await db.connect();
  });

  afterAll(async () => {
    await ingest?.stop();
    await proxy?.close();
    await nc?.close();
    await db?.end();
    await infra?.cleanup();
  });

  it('naks with backoff while the database is away, dead-letters nothing, and stores everything once it is back', async () => {
    const js = jetstream(nc);
    const readings: Reading[] = Array.from({ length: 60 }, (_, i) => ({ readAt: T0 + i * H, value: 10 + i * 0.125 }));
    const send = (from: number, to: number) =>
      js.publish(
        infra.bus.subject('meter.readings.org_outage.1'),
        JSON.stringify(readings.slice(from, to).map((r) => ({ read_at: new Date(r.readAt).toISOString(), value: r.value }))),
      );
    const stored = async () => Number((await db.query(`SELECT count(*) AS n FROM ingest.readings WHERE org_id = 'org_outage'`)).rows[0].n);

    await send(0, 20);
    await eventually(async () => (await stored()) === 20, 10_000, 'first readings');

    await proxy.cut();
    await send(40, 60);
    await send(20, 40); // late, while the database is away
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(await stored()).toBe(20);
    expect(ingest.running).toBe(true);

    await proxy.open();
    await eventually(async () => (await stored()) === 60, 45_000, 'all readings after the outage');
    const { rows } = await db.query(
      `SELECT (extract(epoch from prev_read_at) * 1000)::float8 AS start, (extract(epoch from read_at) * 1000)::float8 AS "end", delta, reset
       FROM ingest.readings WHERE org_id = 'org_outage' AND prev_read_at IS NOT NULL ORDER BY read_at`,
    );
    expect(rows).toEqual(intervalsFromReadings(readings));
    const jsm = await jetstreamManager(nc);
    expect((await jsm.streams.info(platformStreams(infra.bus).deadLetters.name)).state.messages).toBe(0);
  }, 90_000);
});
