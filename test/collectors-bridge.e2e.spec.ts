import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect as connectTcp } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort } from '@meter/testing';
import { mosquittoPublish, startCollectorsPlatform, type CollectorOrganization, type CollectorsPlatform } from './collectors-support';

/** The machine's Mosquitto, the broker utilities already run in front of their receivers. */
const MACHINE_BROKER = { host: '127.0.0.1', port: 1883 };

const answers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connectTcp(port, '127.0.0.1');
    socket.once('connect', () => socket.end(() => resolve(true)));
    socket.once('error', () => resolve(false));
  });

/**
 * Brokers chained as utilities chain them: wmbusmeters publishes to the machine's
 * Mosquitto, a second Mosquitto (started here) bridges that topic in and out to the
 * collectors' MQTT port with a collector credential (the `connection` block of
 * docs/collectors.md), and the readings reach the read model.
 */
describe('a Mosquitto bridge to collectors', () => {
  let platform: CollectorsPlatform;
  let org: CollectorOrganization;
  let bridge: ChildProcess | undefined;
  let dir: string;
  const prefix = `bridge-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    if (!(await answers(MACHINE_BROKER.port)))
      throw new Error(`no Mosquitto at 127.0.0.1:${MACHINE_BROKER.port} (mosquitto -d -c /etc/mosquitto/mosquitto.conf)`);
    platform = await startCollectorsPlatform('collectors-bridge', { TEST_NOW: '2026-11-21T10:00:00Z' });
    org = await platform.organization();
  }, 120_000);

  afterAll(async () => {
    bridge?.kill('SIGTERM');
    if (dir) await rm(dir, { recursive: true, force: true });
    await platform?.stop();
  });

  it('carries wmbusmeters telegrams from the machine broker through the bridge into the read model', async () => {
    const collector = await platform.collectorCredential(org, 'wmbusmeters');
    await platform.registerDevice(org.orgId, 9, { name: 'Bridged meter', external_ids: { wmbus_id: '33225544' } });
    dir = await mkdtemp(join(tmpdir(), 'mosquitto-bridge-'));
    const port = await freePort();
    const config = [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous true',
      'persistence false',
      // In from the machine's broker: <prefix>/wmbusmeters/# there is wmbusmeters/# here.
      'connection from-site',
      `address ${MACHINE_BROKER.host}:${MACHINE_BROKER.port}`,
      `topic wmbusmeters/# in 1 "" ${prefix}/`,
      'try_private false',
      'notifications false',
      'bridge_protocol_version mqttv311',
      // Out to collectors, as docs/collectors.md tells an operator to configure it.
      'connection to-collectors',
      `address 127.0.0.1:${platform.collectors.mqttPort}`,
      `remote_username ${collector.username}`,
      `remote_password ${collector.password}`,
      `remote_clientid ${prefix}-bridge`,
      'topic wmbusmeters/# out 1',
      'try_private false',
      'notifications false',
      'bridge_protocol_version mqttv311',
      'cleansession true',
      // Retry a bridge connection that failed after a second, not Mosquitto's default backoff up to 30 s.
      'restart_timeout 1',
    ];
    await writeFile(join(dir, 'bridge.conf'), `${config.join('\n')}\n`);
    let log = '';
    bridge = spawn('mosquitto', ['-c', join(dir, 'bridge.conf'), '-v'], { stdio: ['ignore', 'pipe', 'pipe'] });
    bridge.stdout?.on('data', (c: Buffer) => (log += c.toString()));
    bridge.stderr?.on('data', (c: Buffer) => (log += c.toString()));
    await eventually(async () => log.includes(`Received CONNACK on connection local.${prefix}-bridge`) && (await answers(port)), 10_000, 'bridge up').catch(
      (e: Error) => {
        throw new Error(`${e.message}\n${log}`);
      },
    );

    const telegrams = [123.529, 123.6, 123.75].map((total, i) => ({
      media: 'water',
      meter: 'iperl',
      name: 'WaterWater',
      id: '33225544',
      total_m3: total,
      timestamp: `2026-11-2${i}T00:00:00Z`,
    }));
    await eventually(
      async () => {
        // The bridges subscribe asynchronously: publish again until the first arrives (a repeat is stored once).
        const sent = await mosquittoPublish(MACHINE_BROKER.port, `${prefix}/wmbusmeters/WaterWater`, JSON.stringify(telegrams[0]));
        expect(sent.code, sent.output).toBe(0);
        return (await platform.readingCount(org.orgId)) === 1;
      },
      20_000,
      'the first telegram through both bridges',
    ).catch((e: Error) => {
      throw new Error(`${e.message}\n${log}`);
    });
    for (const telegram of telegrams.slice(1)) {
      const sent = await mosquittoPublish(MACHINE_BROKER.port, `${prefix}/wmbusmeters/WaterWater`, JSON.stringify(telegram));
      expect(sent.code).toBe(0);
    }
    await eventually(async () => (await platform.readingCount(org.orgId)) === 3, 20_000, 'three telegrams stored');
    const values = (await platform.db.query('SELECT value FROM ingest.readings WHERE org_id = $1 AND device_id = 9 ORDER BY read_at', [org.orgId])).rows.map(
      (r) => r.value,
    );
    expect(values).toEqual([123.529, 123.6, 123.75]);
    expect(log).not.toMatch(/Connection Refused|not authori/i);
  });
});
