import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Aedes, type Client, type PublishPacket } from 'aedes';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { TOPIC_PATTERNS, topicAllowed } from '../decoders/decode';
import type { Collector } from '../credentials/collector';
import { CollectorAuthenticator } from '../credentials/collector-authenticator';
import { CollectorMetrics } from '../uplinks/collector-metrics';
import { UPLINK_MAX_BYTES } from '../uplinks/uplink-limits';
import { isTransient, UplinkService } from '../uplinks/uplink-service';

/** CONNACK return codes of MQTT 3.1.1 (section 3.2.2.3). */
const SERVER_UNAVAILABLE = 3;
const BAD_USERNAME_OR_PASSWORD = 4;
const NOT_AUTHORIZED = 5;

/** Bytes of one socket read aedes takes in at most (Node's default is 16 KiB: about 160 small PUBLISHes). */
const READ_BUFFER_BYTES = 256 * 1024;

const RETRY_MIN_MS = 250;
const RETRY_MAX_MS = 2000;

const refusal = (returnCode: number, message: string) => Object.assign(new Error(message), { returnCode });

/**
 * The collectors' MQTT listener (aedes, MQTT 3.1 and 3.1.1; docs/collectors.md).
 * A PUBLISH is handled in aedes's `authorizePublish` hook, which aedes runs
 * before it writes the QoS 1 PUBACK (lib/handlers/publish.js: authorizePublish,
 * then enqueuePublish, which writes the PubAck): the hook answers only once
 * JetStream has stored the uplink, so the PUBACK follows JetStream's
 * acknowledgement. While JetStream does not answer the hook tries again and
 * the client gets no PUBACK (aedes reads no more of that connection meanwhile);
 * PUBACKs leave in the order the PUBLISHes came.
 */
@Injectable()
export class MqttServer implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('mqtt');
  private broker?: Aedes;
  private readonly servers: Server[] = [];
  private readonly collectors = new WeakMap<Client, Collector>();
  private readonly byCredential = new Map<string, Set<Client>>();
  private readonly lastAck = new WeakMap<Client, Promise<void>>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CollectorAuthenticator) private readonly authenticator: CollectorAuthenticator,
    @Inject(UplinkService) private readonly uplinks: UplinkService,
    @Inject(CollectorMetrics) private readonly metrics: CollectorMetrics,
  ) {}

  async onModuleInit() {
    const broker = await Aedes.createBroker({
      id: `collectors-${randomUUID()}`,
      connectTimeout: 10_000,
      maxClientsIdLength: 256,
      // Collectors publish; nobody subscribes, so nothing is queued for delivery.
      preConnect: (_client, packet, done) => {
        // One collector's client id never takes over another collector's session.
        packet.clientId = `${packet.username ?? ''}/${packet.clientId}`;
        // A collector's will would be a message nobody vouched for at its time: it is not kept.
        delete (packet as { will?: unknown }).will;
        done(null, true);
      },
      authenticate: (client, username, password, done) => {
        const address = client.conn && 'remoteAddress' in client.conn ? (client.conn.remoteAddress ?? 'unknown') : 'unknown';
        void this.authenticator.signIn(username ?? '', password?.toString('utf8') ?? '', address).then((result) => {
          if (result.ok) {
            this.attach(client, result.collector);
            return done(null, true);
          }
          if (result.reason === 'unavailable') return done(refusal(SERVER_UNAVAILABLE, 'credential check unavailable'), false);
          if (result.reason === 'throttled') return done(refusal(NOT_AUTHORIZED, 'too many failed sign-ins from this address'), false);
          done(refusal(BAD_USERNAME_OR_PASSWORD, 'bad user name or password'), false);
        });
      },
      authorizePublish: (client, packet, callback) => this.authorizePublish(client, packet, callback),
      // A negative SUBACK (0x80): collectors send, they do not receive.
      authorizeSubscribe: (_client, _subscription, callback) => callback(null, null),
    });
    this.broker = broker;
    broker.on('clientError', (client, error) => this.logger.debug(`client ${client?.id ?? '?'}: ${error.message}`));
    this.authenticator.onRevoked((credentialId) => this.closeConnectionsOf(credentialId));

    // aedes handles the PUBLISHes of one read of a socket together and reads on once all are acknowledged:
    // a larger read buffer (idle connections allocate none) lets more uplinks of a busy connection await JetStream at once.
    const socketOptions = { highWaterMark: READ_BUFFER_BYTES };
    await this.listen(createServer(socketOptions, broker.handle), this.config.COLLECTORS_MQTT_PORT, 'MQTT');
    if (this.config.COLLECTORS_MQTT_TLS_CERT_FILE && this.config.COLLECTORS_MQTT_TLS_KEY_FILE) {
      const tls = createTlsServer(
        { ...socketOptions, cert: readFileSync(this.config.COLLECTORS_MQTT_TLS_CERT_FILE), key: readFileSync(this.config.COLLECTORS_MQTT_TLS_KEY_FILE) },
        broker.handle,
      );
      await this.listen(tls, this.config.COLLECTORS_MQTTS_PORT, 'MQTT over TLS');
    }
  }

  async onApplicationShutdown() {
    await Promise.all(this.servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    // Unacknowledged publishes stay with their clients, which send them again to another replica.
    await new Promise<void>((resolve) => (this.broker ? this.broker.close(() => resolve()) : resolve()));
  }

  private listen(server: Server, port: number, what: string): Promise<void> {
    this.servers.push(server);
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, this.config.HTTP_HOST, () => {
        this.logger.log(`${what} listening on ${port}`);
        resolve();
      });
    });
  }

  private attach(client: Client, collector: Collector) {
    this.collectors.set(client, collector);
    let clients = this.byCredential.get(collector.credentialId);
    if (!clients) this.byCredential.set(collector.credentialId, (clients = new Set()));
    clients.add(client);
    this.metrics.connections.inc();
    client.conn.once('close', () => {
      clients.delete(client);
      if (clients.size === 0 && this.byCredential.get(collector.credentialId) === clients) this.byCredential.delete(collector.credentialId);
      this.metrics.connections.dec();
    });
  }

  private closeConnectionsOf(credentialId: string) {
    const clients = this.byCredential.get(credentialId);
    if (!clients) return;
    this.logger.log(`credential ${credentialId} revoked: closing its ${clients.size} connection(s)`);
    for (const client of clients) client.close();
  }

  private authorizePublish(client: Client | null, packet: PublishPacket, callback: (error?: Error | null) => void) {
    const collector = client ? this.collectors.get(client) : undefined;
    if (!client || !collector) return callback(new Error('not signed in'));
    if (!topicAllowed(collector.format, packet.topic)) {
      // MQTT 3.1.1 has no negative PUBACK: the connection closes (section 3.3.5).
      this.logger.warn(
        `collector ${collector.credentialId} published to ${packet.topic}, outside ${collector.format}'s topics (${TOPIC_PATTERNS[collector.format]}); connection closed`,
      );
      this.metrics.topicsRefused.inc({ collector: collector.credentialId });
      return callback(new Error(`topic ${packet.topic} is outside the credential's topics`));
    }
    if (packet.payload.length > UPLINK_MAX_BYTES) {
      this.logger.warn(`collector ${collector.credentialId} published ${packet.payload.length} bytes, over ${UPLINK_MAX_BYTES}; connection closed`);
      return callback(new Error('payload over 1 MiB'));
    }
    // Nothing is retained or delivered onwards: the uplink lives in JetStream.
    packet.retain = false;
    const stored = this.store(client, collector, packet);
    const previous = this.lastAck.get(client) ?? Promise.resolve();
    const acked = previous.then(() => stored).then((error) => callback(error));
    this.lastAck.set(client, acked);
  }

  /** Resolves null once JetStream stored the uplink, or the error that ends the connection. */
  private async store(client: Client, collector: Collector, packet: PublishPacket): Promise<Error | null> {
    const receivedAt = Date.now();
    const body = typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload;
    for (let wait = RETRY_MIN_MS; ; wait = Math.min(wait * 2, RETRY_MAX_MS)) {
      try {
        await this.uplinks.accept(collector, { topic: packet.topic, body, receivedAt }, 'mqtt');
        return null;
      } catch (error) {
        if (!isTransient(error)) {
          this.logger.error(`uplink of collector ${collector.credentialId} failed: ${error instanceof Error ? error.message : String(error)}`);
          return error instanceof Error ? error : new Error(String(error));
        }
        // The client keeps the message until its PUBACK; once it is gone it sends it again elsewhere.
        if (client.closed) return new Error('connection closed before the uplink was stored');
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }
}
