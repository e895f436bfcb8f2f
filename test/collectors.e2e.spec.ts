import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@meter/testing';
import { mosquittoPublish, startCollectorsPlatform, type CollectorOrganization, type CollectorsPlatform } from './collectors-support';

/**
 * Collectors through real clients (Debian's mosquitto_pub, MQTT.js, HTTP)
 * against the real collectors, auth, ingest and gateway processes, NATS and
 * Postgres: readings appear in the gateway's history exactly; bad input gets
 * its refusal and reaches nothing; revocation closes connections.
 */
const NOW = '2026-11-21T10:00:00Z';
const DAY = 86_400_000;
const midnight = (daysBefore: number) => new Date(Date.parse('2026-11-21T00:00:00Z') - daysBefore * DAY).toISOString().replace('.000Z', 'Z');

/** Publishes one reading a time at QoS 1 until stopped; stop() tells how many were acknowledged. */
function steadily(client: MqttClient, deviceId: number) {
  let stopped = false;
  let acknowledged = 0;
  const loop = (async () => {
    for (let i = 0; !stopped; i++) {
      await client.publishAsync(`readings/${deviceId}`, JSON.stringify({ read_at: new Date(Date.parse(midnight(5)) + i * 60_000).toISOString(), value: i }), {
        qos: 1,
      });
      acknowledged += 1;
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return acknowledged;
    },
  };
}

describe('collectors', () => {
  let platform: CollectorsPlatform;
  let org: CollectorOrganization;
  const clients: MqttClient[] = [];
  const mqttUrl = () => `mqtt://127.0.0.1:${platform.collectors.mqttPort}`;
  const http = (path: string, init: RequestInit) =>
    fetch(`http://127.0.0.1:${platform.collectors.port}${path}`, { ...init, signal: AbortSignal.timeout(15_000) });
  const history = async (deviceId: number, unit?: string) => {
    const response = await platform.get(org, `/meter/v1/history?device_id=${deviceId}&period=7D`);
    expect(response.status, response.text).toBe(200);
    void unit;
    return (response.json() as { series: { unit: string; data_points: { date: string; value: string }[] }[] }).series[0];
  };
  const connect = async (username: string, password: string, options: Record<string, unknown> = {}) => {
    const client = await connectAsync(mqttUrl(), { username, password, reconnectPeriod: 0, connectTimeout: 5000, ...options });
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    platform = await startCollectorsPlatform('collectors-e2e', { TEST_NOW: NOW, COLLECTORS_AUTH_FAILURES_PER_MINUTE: '5' });
    org = await platform.organization();
  }, 120_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true).catch(() => undefined)));
    await platform?.stop();
  });

  it('stores what mosquitto_pub sends as wmbusmeters does, QoS 1, by wM-Bus id, in the gateway history to the digit, and raises its status words', async () => {
    const collector = await platform.collectorCredential(org, 'wmbusmeters');
    await platform.registerDevice(org.orgId, 1, { name: 'Kitchen tap', time_zone: 'UTC', external_ids: { wmbus_id: '76348799' } });
    const registers = [6.408, 6.52, 6.777, 7.001];
    for (const [i, total] of registers.entries()) {
      const telegram = {
        media: 'cold water',
        meter: 'multical21',
        name: 'MyTapWater',
        id: '76348799',
        status: i === 3 ? 'DRY' : 'OK',
        total_m3: total,
        timestamp: midnight(3 - i),
      };
      const sent = await mosquittoPublish(platform.collectors.mqttPort, 'wmbusmeters/MyTapWater', JSON.stringify(telegram), {
        username: collector.username,
        password: collector.password,
      });
      expect(sent, sent.output).toMatchObject({ code: 0 });
    }
    await eventually(async () => (await platform.readingCount(org.orgId)) === 4, 20_000, 'four readings stored');
    const series = await history(1);
    expect(series.data_points.slice(-4, -1).map((p) => p.value)).toEqual(['0.112', '0.257', '0.224']);
    const alerts = await eventually(
      async () => {
        const body = (await platform.get(org, '/meter/v1/alerts?device_id=1')).json() as { alerts: { code: string; raised_at: string }[] };
        return body.alerts.length > 0 ? body.alerts : false;
      },
      15_000,
      'DRY raised',
    );
    expect(alerts.map((a) => [a.code, a.raised_at])).toEqual([['DRY', `${midnight(0).slice(0, 19)}.000Z`]]);
  });

  it('stores native readings from MQTT.js at QoS 0 and 1, each acknowledged only after it is stored', async () => {
    const collector = await platform.collectorCredential(org, 'native');
    const client = await connect(collector.username, collector.password);
    await client.publishAsync('readings/2', JSON.stringify({ read_at: midnight(2), value: '100.5' }), { qos: 1 });
    // The PUBACK came after JetStream stored it: the message is in the stream already.
    await client.publishAsync(
      'readings/2',
      JSON.stringify([
        { read_at: midnight(1), value: '101' },
        { read_at: midnight(0), value: 102.25 },
      ]),
      { qos: 0 },
    );
    await client.publishAsync('alarms/2', JSON.stringify({ code: 'TAMPER', state: 'raised', at: midnight(0) }), { qos: 1 });
    await eventually(async () => (await platform.readingCount(org.orgId)) === 7, 20_000, 'three more readings');
    expect((await history(2)).data_points.slice(-3, -1).map((p) => p.value)).toEqual(['0.500', '1.250']);
  });

  it('takes ChirpStack and The Things Stack uplinks over HTTP, converting the mapping unit to the device unit exactly', async () => {
    const chirpstack = await platform.collectorCredential(org, 'chirpstack', { value: '/index', unit: 'm³' });
    const ttn = await platform.collectorCredential(org, 'ttn', { unit: 'gal' });
    await platform.registerDevice(org.orgId, 3, { name: 'Lora litres', unit: 'L', time_zone: 'UTC', external_ids: { dev_eui: '0101010101010101' } });
    await platform.registerDevice(org.orgId, 4, { name: 'Lora cubic', unit: 'm³', time_zone: 'UTC', external_ids: { dev_eui: '0004A30B001C0530' } });
    for (const [i, index] of [12.345, 12.5].entries()) {
      const response = await http('/collect/v1/chirpstack?event=up', {
        method: 'POST',
        headers: { authorization: `Bearer ${chirpstack.password}`, 'content-type': 'application/json' },
        body: JSON.stringify({ time: midnight(1 - i), deviceInfo: { devEui: '0101010101010101', deviceName: 'x' }, object: { index } }),
      });
      expect(response.status).toBe(202);
      expect(await response.json()).toEqual({ outcome: 'stored', readings: 1, alarms: 0 });
    }
    for (const [i, volume] of [1000, 1264.172052358].entries()) {
      const response = await http('/collect/v1/ttn', {
        method: 'POST',
        headers: { authorization: `Bearer ${ttn.password}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          end_device_ids: { dev_eui: '0004A30B001C0530' },
          uplink_message: { decoded_payload: { volume }, received_at: midnight(1 - i) },
        }),
      });
      expect(response.status).toBe(202);
    }
    const ignored = await http('/collect/v1/chirpstack?event=join', {
      method: 'POST',
      headers: { authorization: `Bearer ${chirpstack.password}` },
      body: '{}',
    });
    expect(await ignored.json()).toMatchObject({ outcome: 'ignored' });
    await eventually(async () => (await platform.readingCount(org.orgId)) === 11, 20_000, 'four more readings');
    const litres = await history(3);
    expect(litres.unit).toBe('L');
    expect(litres.data_points.at(-2)!.value).toBe('155.000');
    // 264.172052358 US gallons are 1 m³ to 0.000000001 gal: 1.000 at three decimals.
    expect((await history(4)).data_points.at(-2)!.value).toBe('1.000');
  });

  it('dead-letters an uplink for an unknown radio id, counts it per collector and lists it until the device is registered', async () => {
    const collector = await platform.collectorCredential(org, 'wmbusmeters');
    const before = await platform.readingCount(org.orgId);
    const telegram = (total: number) => JSON.stringify({ id: '12345699', total_m3: total, timestamp: midnight(1) });
    const client = await connect(collector.username, collector.password);
    await client.publishAsync('wmbusmeters/MoreWater', telegram(7.704), { qos: 1 });
    await client.publishAsync('wmbusmeters/MoreWater', telegram(7.705), { qos: 1 });
    const letters = (await platform.uplinkDeadLetters()).filter((l) => l.headers['Meter-Collector-Id'] === collector.id);
    expect(letters.map((l) => [l.headers['Meter-Dead-Letter-Reason'], l.headers['Meter-Radio-Id']])).toEqual([
      ['unknown_device', 'wmbus_id:12345699'],
      ['unknown_device', 'wmbus_id:12345699'],
    ]);
    const metrics = await (await http('/metrics', {})).text();
    expect(metrics).toContain(`meter_collectors_unmatched_uplinks_total{collector="${collector.id}"} 2`);
    const listed = await eventually(
      async () => {
        const response = await platform.management(org, 'GET', `/collector-credentials/${collector.id}/unmatched`);
        return response.body.unmatched.length > 0 ? response.body.unmatched : false;
      },
      10_000,
      'unmatched listed',
    );
    expect(listed).toEqual([{ radio_id_kind: 'wmbus_id', radio_id: '12345699', first_seen: expect.any(String), last_seen: expect.any(String), count: 2 }]);
    expect(await platform.readingCount(org.orgId)).toBe(before);

    await platform.registerDevice(org.orgId, 5, { name: 'More water', external_ids: { wmbus_id: '12345699' } });
    await eventually(
      async () => {
        await client.publishAsync('wmbusmeters/MoreWater', telegram(7.704), { qos: 1 });
        return (await platform.readingCount(org.orgId)) === before + 1;
      },
      10_000,
      'the registered meter stored',
    );
    expect((await platform.management(org, 'GET', `/collector-credentials/${collector.id}/unmatched`)).body.unmatched).toEqual([]);
  });

  it('matches uplinks by the radio ids an admin gives a device through the management API; a taken id is 409, another organization’s device 404', async () => {
    const admin = await platform.organization();
    const other = await platform.organization();
    await platform.registerDevice(admin.orgId, 61, { name: 'Garden tap', time_zone: 'UTC' });
    await platform.registerDevice(admin.orgId, 62, { name: 'Cellar', external_ids: { wmbus_id: '11223344' } });
    await platform.registerDevice(other.orgId, 63, { name: 'Foreign meter' });
    const edit = (org: CollectorOrganization, deviceId: number, external_ids: unknown) =>
      platform.management(org, 'PATCH', `/devices/${deviceId}`, { external_ids });

    const set = await edit(admin, 61, { dev_eui: '70B3D57ED0005678' });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({ device_id: 61, name: 'Garden tap', external_ids: { dev_eui: '70b3d57ed0005678', wmbus_id: null } });
    expect((await platform.management(admin, 'GET', '/devices/61')).body.external_ids).toEqual({ dev_eui: '70b3d57ed0005678', wmbus_id: null });

    // A ChirpStack uplink with that DevEUI reaches the device through the collectors process.
    const chirpstack = await platform.collectorCredential(admin, 'chirpstack');
    const uplink = await http('/collect/v1/chirpstack?event=up', {
      method: 'POST',
      headers: { authorization: `Bearer ${chirpstack.password}`, 'content-type': 'application/json' },
      body: JSON.stringify({ time: midnight(1), deviceInfo: { devEui: '70b3d57ed0005678' }, object: { volume: 42.5 } }),
    });
    expect(uplink.status).toBe(202);
    expect(await uplink.json()).toEqual({ outcome: 'stored', readings: 1, alarms: 0 });
    await eventually(
      async () =>
        (await platform.db.query('SELECT value::float8 AS v FROM ingest.readings WHERE org_id = $1 AND device_id = 61', [admin.orgId])).rows[0]?.v === 42.5,
      15_000,
      'the uplink stored for device 61',
    );

    const taken = await edit(admin, 61, { wmbus_id: '11223344' });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({
      code: 'external_id_taken',
      errors: [{ field: 'external_ids.wmbus_id', message: '11223344 is the radio id of device 62' }],
    });
    const bad = await edit(admin, 61, { dev_eui: '70B3D57ED000567' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'external_ids.dev_eui', message: expect.stringMatching(/16 hex digits/) }]);
    expect((await edit(admin, 63, { dev_eui: '0101010101010199' })).status, 'another organization’s device').toBe(404);
    expect((await edit(admin, 64, { dev_eui: '0101010101010199' })).status, 'no such device').toBe(404);
    // Unique per organization, not across them.
    expect((await edit(other, 63, { dev_eui: '70B3D57ED0005678' })).status).toBe(200);
    const rows = await platform.db.query(
      'SELECT org_id, device_id::int AS id, dev_eui, wmbus_id FROM ingest.devices WHERE device_id IN (61, 62, 63) ORDER BY device_id',
    );
    expect(rows.rows).toEqual([
      { org_id: admin.orgId, id: 61, dev_eui: '70b3d57ed0005678', wmbus_id: null },
      { org_id: admin.orgId, id: 62, dev_eui: null, wmbus_id: '11223344' },
      { org_id: other.orgId, id: 63, dev_eui: '70b3d57ed0005678', wmbus_id: null },
    ]);

    // Removing an id: its uplinks are unmatched again.
    expect((await edit(admin, 61, { dev_eui: null })).body.external_ids).toEqual({ dev_eui: null, wmbus_id: null });
    const unmatched = await http('/collect/v1/chirpstack?event=up', {
      method: 'POST',
      headers: { authorization: `Bearer ${chirpstack.password}`, 'content-type': 'application/json' },
      body: JSON.stringify({ time: midnight(0), deviceInfo: { devEui: '70b3d57ed0005678' }, object: { volume: 43 } }),
    });
    expect(await unmatched.json()).toMatchObject({ outcome: 'unknown_device' });
  });

  it('refuses bad input clearly, stores none of it, and keeps storing another collector’s valid messages meanwhile', async () => {
    const native = await platform.collectorCredential(org, 'native');
    const wmbus = await platform.collectorCredential(org, 'wmbusmeters');
    const before = await platform.readingCount(org.orgId);
    const steady = steadily(await connect(native.username, native.password), 6);

    // Over MQTT: each bad payload is acknowledged and dead-lettered with its reason, never stored.
    const bad = await connect(wmbus.username, wmbus.password);
    const payloads: [string, string][] = [
      ['not json', 'body is not valid UTF-8 JSON'],
      [JSON.stringify({ id: '76348799', timestamp: midnight(0) }), 'no register value: the telegram has no total_m3 (or total_<unit>) field'],
      [JSON.stringify({ id: '76348799', timestamp: midnight(0), total_m3: 'six' }), 'total_m3: must be a non-negative decimal string'],
      [JSON.stringify({ id: '76348799', timestamp: 'Tuesday', total_m3: 1 }), 'timestamp: "Tuesday" must be an RFC 3339 timestamp with Z or an offset'],
    ];
    for (const [payload] of payloads) await bad.publishAsync('wmbusmeters/x', payload, { qos: 1 });
    const reasons = (await platform.uplinkDeadLetters())
      .filter((l) => l.headers['Meter-Collector-Id'] === wmbus.id)
      .map((l) => l.headers['Meter-Dead-Letter-Reason']);
    expect(reasons).toEqual(payloads.map(([, reason]) => reason));

    // Over HTTP: 400 naming what could not be decoded.
    const post = (body: string) => http('/collect/v1/wmbusmeters', { method: 'POST', headers: { authorization: `Bearer ${wmbus.password}` }, body });
    for (const [payload, reason] of payloads) {
      const response = await post(payload);
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await response.json()).toMatchObject({ code: 'undecodable_uplink', detail: reason });
    }
    // 2 MiB: 413 problem+json.
    const large = await post('x'.repeat(2 * 1024 * 1024));
    expect(large.status).toBe(413);
    expect(await large.json()).toMatchObject({ status: 413, code: 'payload_too_large' });

    // 2 MiB over MQTT: the connection closes, no PUBACK.
    const huge = await connect(wmbus.username, wmbus.password);
    const hugeClosed = new Promise<void>((resolve) => huge.once('close', () => resolve()));
    huge.publish('wmbusmeters/x', 'x'.repeat(2 * 1024 * 1024), { qos: 1 }, () => undefined);
    await hugeClosed;

    // A topic outside the credential's: the connection closes, no PUBACK.
    const outside = await connect(native.username, native.password);
    const closed = new Promise<void>((resolve) => outside.once('close', () => resolve()));
    outside.publish('devices/1', JSON.stringify({ name: 'forged' }), { qos: 1 }, () => undefined);
    await closed;
    const refused = await mosquittoPublish(platform.collectors.mqttPort, 'meter/readings/1', '{}', { username: native.username, password: native.password });
    expect(refused.code).not.toBe(0);

    const flowing = await steady.stop();
    expect(flowing).toBeGreaterThan(0);
    // Only the steady collector's readings were stored, every one of them.
    await eventually(async () => (await platform.readingCount(org.orgId)) === before + flowing, 15_000, 'the steady readings stored');
    expect(platform.collectors.process.running).toBe(true);
  });

  it('closes a revoked collector’s connections within a second and refuses it afterwards', async () => {
    const collector = await platform.collectorCredential(org, 'native');
    const client = await connect(collector.username, collector.password);
    const closed = new Promise<number>((resolve) => client.once('close', () => resolve(Date.now())));
    const revokedAt = Date.now();
    expect((await platform.management(org, 'DELETE', `/collector-credentials/${collector.id}`)).status).toBe(204);
    expect((await closed) - revokedAt).toBeLessThan(1000);
    await expect(connect(collector.username, collector.password)).rejects.toThrow(/Bad username or password/i);
    const listed = (await platform.management(org, 'GET', '/collector-credentials')).body.collector_credentials.find(
      (c: { id: string }) => c.id === collector.id,
    );
    expect(listed).toMatchObject({ status: 'revoked', format: 'native', username: collector.username });
    expect(listed.password).toBeUndefined();
  });

  it('answers an MQTT 5 client with a refusal of its protocol version (aedes speaks 3.1 and 3.1.1)', async () => {
    const collector = await platform.collectorCredential(org, 'native');
    const refusal = await connect(collector.username, collector.password, { protocolVersion: 5 }).then(
      () => 'connected',
      (error: Error) => error.message,
    );
    // aedes answers CONNACK return code 1; MQTT.js reports it as such (docs/collectors.md, "MQTT 5").
    expect(refusal).toBe('Connection refused: Unacceptable protocol version');
  });

  // Last: it leaves this machine's address throttled for a minute.
  it('throttles a flood of CONNECTs with bad passwords from one address, refusing each at CONNECT, while a signed-in collector keeps storing', async () => {
    const native = await platform.collectorCredential(org, 'native');
    const before = await platform.readingCount(org.orgId);
    const steady = steadily(await connect(native.username, native.password), 7);
    // A flood of CONNECTs with bad passwords: refused at CONNECT, then throttled for this address.
    const wrong = `${native.username}.${'A'.repeat(43)}`;
    const outcomes: string[] = [];
    for (let i = 0; i < 12; i++) {
      const started = Date.now();
      const attempt = await mosquittoPublish(platform.collectors.mqttPort, 'readings/6', '{}', { username: native.username, password: wrong });
      expect(attempt.code).not.toBe(0);
      outcomes.push(
        attempt.output.includes('not authori') ? 'throttled' : attempt.output.includes('bad user name or password') ? 'refused' : `other: ${attempt.output}`,
      );
      expect(Date.now() - started).toBeLessThan(10_000);
    }
    // COLLECTORS_AUTH_FAILURES_PER_MINUTE is 5: earlier failures from this address (the revoked credential's) count too.
    const refusedFirst = outcomes.findIndex((o) => o !== 'refused');
    expect(refusedFirst).toBeGreaterThan(0);
    expect(refusedFirst).toBeLessThanOrEqual(5);
    expect(outcomes.slice(refusedFirst)).toEqual(Array(12 - refusedFirst).fill('throttled'));
    const http429 = await http('/collect/v1/native', { method: 'POST', headers: { authorization: `Bearer ${wrong}` }, body: '{}' });
    expect(http429.status).toBe(429);
    expect(Number(http429.headers.get('retry-after'))).toBeGreaterThan(0);

    const flowing = await steady.stop();
    await eventually(async () => (await platform.readingCount(org.orgId)) === before + flowing, 15_000, 'the steady readings stored');
    expect(platform.collectors.process.running).toBe(true);
  });
});
