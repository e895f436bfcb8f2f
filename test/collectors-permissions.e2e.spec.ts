import { DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BusNames, COLLECTOR_REVOKED_EVENT_SUBJECT, platformStreams } from '@meter/contracts';
import { ensureStream } from '@meter/messaging';
import {
  freePort,
  isolatedInfra,
  natsServerBinary,
  PrivateNats,
  requestError,
  startReadyApp,
  subscribeOutcome,
  type IsolatedInfra,
  type PlatformProcess,
} from '@meter/testing';

const DENIED_PUBLISH = /Permissions Violation for Publish/;
const DENIED_SUBSCRIPTION = /Permissions Violation for Subscription/;
const INBOX = '_INBOX_collectors';

/**
 * The collectors process under deploy/base/nats/vault-permissions.conf on a private
 * nats-server, as deploy/ runs it: it publishes readings, devices, alarms and uplink dead
 * letters, asks auth for credentials and follows revocations, and can do nothing else;
 * nobody else can answer its lookups or read their answers.
 */
describe.skipIf(!natsServerBinary)('collectors under deploy/base/nats/vault-permissions.conf', () => {
  const bus = new BusNames('');
  const streams = platformStreams(bus);
  let infra: IsolatedInfra;
  let nats: PrivateNats;
  let collectors: PlatformProcess | undefined;
  const as = (user: 'collectors' | 'auth' | 'gateway' | 'ingest' | 'integration') =>
    nats.as(
      user,
      user === 'collectors'
        ? { inboxPrefix: INBOX }
        : user === 'auth'
          ? { inboxPrefix: '_INBOX_auth' }
          : user === 'integration'
            ? { inboxPrefix: '_INBOX_integration' }
            : {},
    );

  beforeAll(async () => {
    infra = await isolatedInfra();
    nats = await PrivateNats.start({ jetstream: true });
  });

  afterAll(async () => {
    await collectors?.stop();
    await nats?.stop();
    await infra?.cleanup();
  });

  it('starts the collectors process as its own user to ready, declaring the streams it publishes to', async () => {
    const started = await startReadyApp('collectors', infra.env({ ...nats.env('collectors', INBOX), COLLECTORS_MQTT_PORT: String(await freePort()) }));
    collectors = started.process;
    const jsm = await jetstreamManager(await as('auth'));
    for (const stream of [streams.readings, streams.deadLetters]) expect((await jsm.streams.info(stream.name)).config.name).toBe(stream.name);
  }, 60_000);

  it('lets it publish readings, devices, alarms and uplink dead letters, and ask auth for a credential', async () => {
    const js = jetstream(await as('collectors'));
    for (const subject of ['meter.readings.org_p.1', 'meter.devices.org_p.1', 'meter.alarms.org_p.1', 'meter.deadletter.uplinks']) {
      expect((await js.publish(subject, '{}')).duplicate, subject).toBe(false);
    }
    // Nobody answers here, but the request was allowed out.
    expect(await requestError(await as('collectors'), 'auth.collectors.lookup')).toMatch(/no responders/);
  });

  it('follows revocations with an ordered consumer of AUTH_EVENTS, as RevocationFeed does', async () => {
    const auth = await as('auth');
    await ensureStream(await jetstreamManager(auth), streams.authEvents);
    const consumer = await jetstream(await as('collectors')).consumers.get(streams.authEvents.name, {
      deliver_policy: DeliverPolicy.New,
      filter_subjects: COLLECTOR_REVOKED_EVENT_SUBJECT,
    });
    const messages = await consumer.consume();
    await jetstream(auth).publish(COLLECTOR_REVOKED_EVENT_SUBJECT, '{"revoked":true}');
    for await (const message of messages) {
      expect(message.string()).toBe('{"revoked":true}');
      break;
    }
    await messages.close();
  });

  it('keeps it to those subjects', async () => {
    const js = jetstream(await as('collectors'));
    for (const subject of ['auth.events.credential.created', 'events.org_p.alert.raised', 'meter.deadletter.readings', 'vault.audit.x']) {
      await expect(js.publish(subject, '{}'), subject).rejects.toThrow(DENIED_PUBLISH);
    }
    for (const subject of ['vault.rpc.list', 'integrations.rpc.exports.list', 'auth.credentials.lookup']) {
      expect(await requestError(await as('collectors'), subject), subject).toMatch(DENIED_PUBLISH);
    }
    for (const subject of ['meter.readings.>', 'auth.collectors.lookup', '_INBOX_auth.>', 'auth.events.>']) {
      expect(await subscribeOutcome(await as('collectors'), subject), subject).toMatch(DENIED_SUBSCRIPTION);
    }
    const jsm = await jetstreamManager(await as('collectors'));
    await expect(jsm.streams.purge(streams.readings.name)).rejects.toThrow(DENIED_PUBLISH);
    await expect(jsm.streams.delete(streams.authEvents.name)).rejects.toThrow(DENIED_PUBLISH);
  });

  it('lets auth publish device messages (an admin’s radio id edit), but no readings, alarms or dead letters', async () => {
    const js = jetstream(await as('auth'));
    expect((await js.publish('meter.devices.org_p.2', '{"name":"x","external_ids":{"dev_eui":"0004a30b001c0530"}}')).duplicate).toBe(false);
    for (const subject of ['meter.readings.org_p.2', 'meter.alarms.org_p.2', 'meter.deadletter.uplinks']) {
      await expect(js.publish(subject, '{}'), subject).rejects.toThrow(DENIED_PUBLISH);
    }
  });

  it('lets no other process answer its lookups or read their answers (they carry password hashes)', async () => {
    for (const user of ['gateway', 'ingest', 'integration'] as const) {
      expect(await subscribeOutcome(await as(user), 'auth.collectors.lookup', { queue: 'auth' }), user).toMatch(DENIED_SUBSCRIPTION);
      expect(await subscribeOutcome(await as(user), `${INBOX}.>`), user).toMatch(DENIED_SUBSCRIPTION);
    }
    expect(await subscribeOutcome(await as('auth'), `${INBOX}.>`)).toMatch(DENIED_SUBSCRIPTION);
    expect(await subscribeOutcome(await as('auth'), 'auth.collectors.lookup', { queue: 'auth' })).toBeUndefined();
  });
});
