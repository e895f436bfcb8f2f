import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A loopback TCP proxy a test can cut and restore, to make a real server
 * unreachable for one process without stopping it for everyone else.
 */
export class TcpProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  constructor(
    readonly port: number,
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  static async to(url: string, port: number): Promise<TcpProxy> {
    const target = new URL(url);
    const proxy = new TcpProxy(port, target.hostname, Number(target.port));
    await proxy.open();
    return proxy;
  }

  /** The target URL rewritten to go through the proxy. */
  via(url: string): string {
    const rewritten = new URL(url);
    rewritten.hostname = '127.0.0.1';
    rewritten.port = String(this.port);
    return rewritten.toString().replace(/\/$/, '');
  }

  open(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = createConnection(this.targetPort, this.targetHost);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    return new Promise((resolve) => this.server!.listen(this.port, '127.0.0.1', () => resolve()));
  }

  /** Refuses new connections and drops the open ones. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }

  async close(): Promise<void> {
    await this.cut();
  }
}
