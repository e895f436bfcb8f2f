import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jetstream } from '@nats-io/jetstream';
import type { AppConfig } from '@meter/config';
import { BusNames } from '@meter/contracts';
import { connectNats } from '@meter/messaging';
import { verifyWebhook } from '@meter/signing';
import { publishSimulatedMeters } from '../simulator/publish-simulated-meters';
import { createWebhookEndpoint, deleteWebhookEndpoint } from './management-client';

/** The leaking meter's id: after the demo's other meters. */
const LEAKING_METER = 4;
const WAIT_MS = 90_000;

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * The demo's last step (docs/alerts-and-webhooks.md): starts a webhook
 * receiver on this machine, registers it as the organization's endpoint for
 * alert.raised, publishes a meter that has leaked for 36 hours, and prints
 * the LEAK alert when it arrives, with its signature checked against the
 * endpoint's secret. Needs the integrations process (npm start runs it) and
 * a platform that allows private webhook URLs (the development default).
 * The endpoint lives only as long as its receiver: it is deleted before the
 * receiver stops, success or not, so no later alert fails to be delivered.
 */
export async function showLeakAlert(config: AppConfig, options: { managementUrl: string; token: string; orgId: string; say: (line?: string) => void }) {
  const { say } = options;
  let resolveFirst: (r: Received) => void = () => undefined;
  const first = new Promise<Received>((resolve) => (resolveFirst = resolve));
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(204).end();
      resolveFirst({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
    const endpoint = await createWebhookEndpoint(options.managementUrl, options.token, url, ['alert.raised']);
    say(`Webhook endpoint ${endpoint.id} -> ${url} (alert.raised); its secret, shown once: ${endpoint.secret}`);
    try {
      await receiveLeakAlert(config, options.orgId, { secret: endpoint.secret, first, say });
    } finally {
      await deleteWebhookEndpoint(options.managementUrl, options.token, endpoint.id).then(
        () => say(`Webhook endpoint ${endpoint.id} deleted: its receiver stops with the demo.`),
        (error: Error) => say(`Webhook endpoint ${endpoint.id} could not be deleted (${error.message}); delete it yourself, its receiver stops with the demo.`),
      );
    }
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

/** Publishes the leaking meter and waits for its alert at the receiver (`first`: the first request it gets). */
async function receiveLeakAlert(
  config: AppConfig,
  orgId: string,
  { secret, first, say }: { secret: string; first: Promise<Received>; say: (line?: string) => void },
) {
  const nc = await connectNats(config.NATS_URL, 'demo-leak');
  const published = Date.now();
  try {
    await publishSimulatedMeters(jetstream(nc), new BusNames(config.BUS_PREFIX), {
      orgId,
      meters: 1,
      firstId: LEAKING_METER,
      days: 2,
      intervalMs: 3600_000,
      zone: 'Europe/Madrid',
      perMessage: 100,
      seed: 1,
      pricePerUnit: 1.85,
      now: Date.now(),
      anomalies: { leak: 1 },
    });
  } finally {
    await nc.drain();
  }
  say(`Published meter ${LEAKING_METER}, leaking for the last 36 hours; waiting for its alert…`);
  const timeout = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), WAIT_MS).unref());
  const received = await Promise.race([first, timeout]);
  if (!received)
    throw new Error(`no webhook arrived within ${WAIT_MS / 1000} s: is the integrations process running, and WEBHOOK_ALLOW_PRIVATE_URLS not false?`);
  const verified = verifyWebhook(secret, received.headers as Record<string, string>, received.body);
  say();
  say(
    `Webhook received ${((received.at - published) / 1000).toFixed(1)} s after publishing, webhook-id ${String(received.headers['webhook-id'])}, ` +
      `signature ${verified ? 'verified' : 'NOT verified'} with the endpoint's secret:`,
  );
  say(JSON.stringify(JSON.parse(received.body), null, 2));
  if (!verified) throw new Error('the webhook signature did not verify');
}
