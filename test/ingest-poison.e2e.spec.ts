import { jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEAD_LETTER_HEADERS, platformStreams } from '@meter/contracts';
import { readingsConsumer } from '@meter/ingest';
import { connectNats } from '@meter/messaging';
import { eventually, isolatedInfra, startReadyApp, type IsolatedInfra, type PlatformProcess } from '@meter/testing';

const ORG = 'org_poison';
const MAX_ACK_PENDING = 4;
const ACK_WAIT_SECONDS = 4;
const T0 = Date.UTC(2026, 10, 1);

/** Messages the ingest cannot use: each must become one dead letter and leave the consumer. */
const POISON: { subject: string; data: string }[] = [
  ...Array.from({ length: 4 }, (_, i) => ({ subject: `meter.readings.${ORG}.${i + 1}`, data: `{not json ${i}` })),
  ...Array.from({ length: 3 }, (_, i) => ({ subject: `meter.readings.${ORG}.${i + 1}`, data: JSON.stringify({ read_at: 'yesterday', value: i }) })),
  ...Array.from({ length: 3 }, (_, i) => ({ subject: `meter.readings.${ORG}.x${i}`, data: JSON.stringify({ read_at: new Date(T0).toISOString(), value: 1 }) })),
  ...Array.from({ length: 2 }, (_, i) => ({ subject: `meter.devices.${ORG}.${i + 1}`, data: JSON.stringify({ name: 'meter', time_zone: 'Mars/Olympus' }) })),
];
const VALID_MESSAGES = 20;

/**
 * Runs against the NATS server CI has (2.9.10 there): servers before 2.10.4
 * ignore a `+TERM` that carries a reason, so a dead-lettered message used to
 * stay pending, come back every ack_wait and hold a max_ack_pending slot
 * until nothing else was delivered. Here there are more poison messages than
 * slots, with a short ack_wait so that a redelivery would show.
 */
describe('poison messages on the readings consumer', () => {
  let infra: IsolatedInfra;
  let ingest: { process: PlatformProcess; port: number };
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  let db: Client;

  beforeAll(async () => {
    infra = await isolatedInfra();
    ingest = await startReadyApp('ingest', infra.env({ INGEST_MAX_ACK_PENDING: String(MAX_ACK_PENDING), INGEST_ACK_WAIT_SECONDS: String(ACK_WAIT_SECONDS) }));
    nc = await connectNats(infra.natsUrl, 'poison-test');
    jsm = await jetstreamManager(nc);
    db = new Client({ connectionString: infra.databaseUrl });
    await db.connect();
  });

  afterAll(async () => {
    await ingest?.process.stop();
    await nc?.close();
    await db?.end();
    await infra?.cleanup();
  });

  const stored = async () => Number((await db.query('SELECT count(*) AS n FROM ingest.readings WHERE org_id = $1', [ORG])).rows[0].n);

  const deadLettersCounted = async () => {
    const text = await (await fetch(`http://127.0.0.1:${ingest.port}/metrics`)).text();
    return text
      .split('\n')
      .filter((line) => line.startsWith('meter_ingest_dead_letters_total{'))
      .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
  };

  it('dead-letters each exactly once, frees its slot at once and stores the valid readings published after them', async () => {
    const js = jetstream(nc);
    for (const poison of POISON) await js.publish(infra.bus.subject(poison.subject), poison.data);
    for (let i = 0; i < VALID_MESSAGES; i++) {
      const reading = { read_at: new Date(T0 + i * 3600_000).toISOString(), value: 10 + i };
      await js.publish(infra.bus.subject(`meter.readings.${ORG}.${(i % 4) + 1}`), JSON.stringify(reading));
    }

    const spec = readingsConsumer(infra.bus, MAX_ACK_PENDING);
    await eventually(async () => (await stored()) === VALID_MESSAGES, 20_000, `all ${VALID_MESSAGES} valid readings stored`).catch(async (error: Error) => {
      const info = await jsm.consumers.info(spec.stream, spec.durable);
      throw new Error(
        `${error.message}; stored ${await stored()}, consumer ${JSON.stringify({ ack_pending: info.num_ack_pending, redelivered: info.num_redelivered })}`,
      );
    });

    // Long enough for any message still pending to come back twice.
    await new Promise((resolve) => setTimeout(resolve, (2 * ACK_WAIT_SECONDS + 1) * 1000));

    const info = await jsm.consumers.info(spec.stream, spec.durable);
    expect({ ackPending: info.num_ack_pending, redelivered: info.num_redelivered, pending: info.num_pending }).toEqual({
      ackPending: 0,
      redelivered: 0,
      pending: 0,
    });
    // Every message was delivered once: the consumer's delivery count is the number of messages.
    expect(info.delivered.consumer_seq).toBe(POISON.length + VALID_MESSAGES);

    const deadStream = platformStreams(infra.bus).deadLetters.name;
    expect((await jsm.streams.info(deadStream)).state.messages).toBe(POISON.length);
    const originals: number[] = [];
    for (let seq = 1; seq <= POISON.length; seq++) {
      originals.push(Number((await jsm.streams.getMessage(deadStream, { seq }))!.header!.get(DEAD_LETTER_HEADERS.sequence)));
    }
    expect(originals.sort((a, b) => a - b)).toEqual(POISON.map((_, i) => i + 1));
    expect(await deadLettersCounted()).toBe(POISON.length);
    expect(await stored()).toBe(VALID_MESSAGES);
  }, 60_000);
});
