import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platformStreams } from '@meter/contracts';
import { connectNats } from '@meter/messaging';
import { eventually, isolatedInfra, startReadyApp, type IsolatedInfra, type PlatformProcess } from '@meter/testing';

const ORG = 'org_order';
// Not a divisor of the replicas' pull windows (100 messages), so one device's messages fall to both replicas.
const DEVICES = 97;
const T = Date.parse('2026-11-01T00:00:00Z');
const at = (hours: number) => new Date(T + hours * 3_600_000).toISOString();

/** Each device's messages in publish order; the end state is the one they give applied in that order. */
const STEPS: { kind: 'devices' | 'readings' | 'alarms'; payload: unknown }[] = [
  { kind: 'devices', payload: { name: 'first name', time_zone: 'UTC' } },
  { kind: 'readings', payload: { read_at: at(1), value: 1 } },
  { kind: 'alarms', payload: { code: 'TAMPER', state: 'raised', at: at(1) } },
  { kind: 'alarms', payload: { code: 'TAMPER', state: 'cleared', at: at(2) } },
  { kind: 'alarms', payload: { code: 'TAMPER', state: 'raised', at: at(3) } },
  { kind: 'devices', payload: { name: 'second name', time_zone: 'UTC' } },
  { kind: 'readings', payload: { read_at: at(1), value: 5 } },
  { kind: 'alarms', payload: { code: 'TAMPER', state: 'cleared', at: at(4) } },
  { kind: 'alarms', payload: { code: 'DRY', state: 'cleared', at: at(4) } },
  { kind: 'alarms', payload: { code: 'DRY', state: 'raised', at: at(5) } },
];

describe('two ingest replicas apply each device’s messages in publish order', () => {
  let infra: IsolatedInfra;
  let db: Client;
  let nc: NatsConnection;
  const processes: PlatformProcess[] = [];

  const startIngest = async () => {
    const started = await startReadyApp('ingest', infra.env({ INGEST_BATCH_MESSAGES: '10', INGEST_CONCURRENCY: '2', INGEST_ALERT_RULES: 'off' }), 60_000);
    processes.push(started.process);
    return started.process;
  };

  beforeAll(async () => {
    infra = await isolatedInfra();
    db = new Client({ connectionString: infra.databaseUrl });
    await db.connect();
    nc = await connectNats(infra.natsUrl, 'order-test');
  });

  afterAll(async () => {
    for (const p of processes) await p.stop();
    await nc?.drain();
    await db?.end();
    await infra?.cleanup();
  });

  it('ends with the last settings, the corrected reading and the episodes of the alarms in order', async () => {
    // The first start declares the streams and the shared consumer; the messages then wait for both replicas together.
    await (await startIngest()).stop();
    const js = jetstream(nc);
    for (const step of STEPS) {
      for (let device = 1; device <= DEVICES; device++) {
        await js.publish(infra.bus.subject(`meter.${step.kind}.${ORG}.${device}`), JSON.stringify(step.payload));
      }
    }
    await Promise.all([startIngest(), startIngest()]);

    // Every message acknowledged is every message committed (ingest acks after commit).
    const jsm = await jetstreamManager(nc);
    const drained = async () => {
      const info = await jsm.consumers.info(platformStreams(infra.bus).readings.name, infra.bus.consumer('INGEST_READINGS'));
      return info.num_pending === 0 && info.num_ack_pending === 0;
    };
    await eventually(drained, 60_000, 'every message written and acknowledged');

    const devices = await db.query(`SELECT name, count(*)::int AS n FROM ingest.devices WHERE org_id = $1 GROUP BY name`, [ORG]);
    expect(devices.rows).toEqual([{ name: 'second name', n: DEVICES }]);
    const readings = await db.query(`SELECT value::float8 AS value, count(*)::int AS n FROM ingest.readings WHERE org_id = $1 GROUP BY value`, [ORG]);
    expect(readings.rows).toEqual([{ value: 5, n: DEVICES }]);
    const episodes = await db.query(
      `SELECT code, state, raised_at, cleared_at, count(*)::int AS n FROM ingest.alert_episodes WHERE org_id = $1
       GROUP BY 1, 2, 3, 4 ORDER BY 1, 3`,
      [ORG],
    );
    expect(episodes.rows).toEqual([
      { code: 'DRY', state: 'open', raised_at: new Date(at(5)), cleared_at: null, n: DEVICES },
      { code: 'TAMPER', state: 'cleared', raised_at: new Date(at(1)), cleared_at: new Date(at(2)), n: DEVICES },
      { code: 'TAMPER', state: 'cleared', raised_at: new Date(at(3)), cleared_at: new Date(at(4)), n: DEVICES },
    ]);
  });
});
