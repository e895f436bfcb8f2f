import type { Msg } from '@nats-io/nats-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREDENTIAL_LOOKUP_QUEUE_GROUP, CREDENTIAL_LOOKUP_SUBJECT } from '@meter/contracts';
import { natsServerBinary, PrivateNats, subscribeOutcome, type NatsUser } from '@meter/testing';

/** The credential lookup under deploy/'s NATS permissions: gateways ask, only auth may answer. */
describe.skipIf(!natsServerBinary)('credential lookups under deploy/base/nats/vault-permissions.conf', () => {
  let nats: PrivateNats;
  const as = (user: NatsUser, inboxPrefix?: string) => nats.as(user, inboxPrefix ? { inboxPrefix } : {});

  beforeAll(async () => {
    nats = await PrivateNats.start();
  });

  afterAll(async () => {
    await nats?.stop();
  });

  it('lets auth, as deploy/ runs it, answer a gateway', async () => {
    const auth = await as('auth', '_INBOX_auth');
    auth.subscribe(CREDENTIAL_LOOKUP_SUBJECT, {
      queue: CREDENTIAL_LOOKUP_QUEUE_GROUP,
      callback: (_error: Error | null, message: Msg) => void message.respond('{"status":"unknown"}'),
    });
    await auth.flush();
    const gateway = await as('gateway');
    const answer = await gateway.request(CREDENTIAL_LOOKUP_SUBJECT, '{"access_key":"sk_live_x"}', { timeout: 2000 });
    expect(answer.json()).toEqual({ status: 'unknown' });
  });

  it('lets no other process answer in its place', async () => {
    expect(await subscribeOutcome(await as('gateway'), CREDENTIAL_LOOKUP_SUBJECT)).toMatch(/Permissions Violation for Subscription/);
    expect(await subscribeOutcome(await as('ingest'), CREDENTIAL_LOOKUP_SUBJECT)).toMatch(/Permissions Violation for Subscription/);
  });
});
