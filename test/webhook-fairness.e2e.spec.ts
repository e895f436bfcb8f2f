import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@meter/testing';
import { startAlertPlatform, WebhookReceiver, type AlertPlatform, type TestOrganization } from './alert-support';

/** A receiver that accepts every request and never answers, counting the attempts it holds open per path. */
class SilentReceiver {
  readonly open = new Map<string, number>();
  readonly most = new Map<string, number>();
  mostInAll = 0;
  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(): Promise<SilentReceiver> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const silent = new SilentReceiver(server, (server.address() as AddressInfo).port);
    server.on('request', (req) => {
      const path = req.url ?? '/';
      silent.open.set(path, (silent.open.get(path) ?? 0) + 1);
      silent.most.set(path, Math.max(silent.most.get(path) ?? 0, silent.open.get(path)!));
      silent.mostInAll = Math.max(silent.mostInAll, silent.inAll());
      req.socket.once('close', () => silent.open.set(path, silent.open.get(path)! - 1));
    });
    return silent;
  }

  inAll(): number {
    return [...this.open.values()].reduce((a, b) => a + b, 0);
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/**
 * Fair deliveries: an organization whose receivers accept and never answer
 * holds at most its endpoints' and its organization's share of the delivery
 * attempts (WEBHOOK_ENDPOINT_CONCURRENCY, WEBHOOK_ORG_CONCURRENCY), and
 * another organization's deliveries flow meanwhile.
 */
describe('webhook deliveries are fair between endpoints and organizations', () => {
  let platform: AlertPlatform;
  let silent: SilentReceiver;
  let healthy: WebhookReceiver;
  let orgA: TestOrganization;
  let orgB: TestOrganization;
  let device = 0;
  const at = () => new Date(Math.floor(Date.now() / 1000) * 1000).toISOString();
  const raise = (org: TestOrganization) => platform.publish('alarms', org.orgId, ++device, { code: 'TAMPER', state: 'raised', at: at() });
  const endpoint = async (org: TestOrganization, url: string) => {
    const created = await platform.management(org, 'POST', '/webhook-endpoints', { url, events: ['alert.raised'] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.id as string;
  };

  beforeAll(async () => {
    [silent, healthy] = await Promise.all([SilentReceiver.start(), WebhookReceiver.start()]);
    platform = await startAlertPlatform('webhook-fairness-e2e', {
      WEBHOOK_DELIVERY_CONCURRENCY: '4',
      WEBHOOK_ENDPOINT_CONCURRENCY: '2',
      WEBHOOK_ORG_CONCURRENCY: '3',
    });
    [orgA, orgB] = [await platform.organization(), await platform.organization()];
  });

  afterAll(async () => {
    await platform?.stop();
    await Promise.all([silent?.stop(), healthy?.stop()]);
  });

  it("org A's silent receivers hold only their share while org B's deliveries are all delivered", async () => {
    await endpoint(orgA, silent.url('/dead-1'));
    await endpoint(orgA, silent.url('/dead-2'));
    const healthyId = await endpoint(orgB, healthy.url('/healthy'));
    // 8 events of A: 16 deliveries to receivers that hang, enough to fill every slot without shares.
    for (let i = 0; i < 8; i++) await raise(orgA);
    await eventually(async () => silent.inAll() === 3, 30_000, "org A's share of attempts under way");
    for (let i = 0; i < 10; i++) await raise(orgB);
    const delivered = await eventually(
      async () => {
        const list = (await platform.management(orgB, 'GET', `/webhook-endpoints/${healthyId}/deliveries`)).body.deliveries as { status: string }[];
        return list.length === 10 && list.every((d) => d.status === 'delivered') ? list : false;
      },
      60_000,
      "org B's ten deliveries delivered",
    );
    expect(delivered).toHaveLength(10);
    expect(healthy.at('/healthy')).toHaveLength(10);
    // Never more than an endpoint's share (2) on one receiver, nor the organization's (3) on both.
    expect(Math.max(...silent.most.values())).toBeLessThanOrEqual(2);
    expect(silent.mostInAll).toBeLessThanOrEqual(3);
  });
});
