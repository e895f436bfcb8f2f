import { Client } from 'pg';

export interface PgListenerOptions {
  databaseUrl: string;
  /** A plain identifier: it is written into `LISTEN <channel>`. */
  channel: string;
  /** Names the connection in pg_stat_activity. */
  applicationName: string;
  /** Wait before connecting again after the connection was lost. */
  retryMs?: number;
  onNotification: (payload: string | undefined) => void;
  /** LISTEN is in place (again). Notifications sent while it was not were missed. */
  onListening?: () => void;
  /**
   * The connection is gone or could not be made; notifications are missed
   * until `onListening`. Called once per loss, not for each failed retry;
   * `error` is what failed (an Error whose message is `why`).
   */
  onLost?: (why: string, error: Error) => void;
}

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * One LISTEN connection that comes back by itself. Notifications are a hint
 * that arrives after the sender's commit; whoever relies on them must treat
 * `onLost` as "anything may have changed".
 */
export class PgListener {
  private client?: Client;
  private running = false;
  /** Lost (or never in place) and already reported by onLost. */
  private lostReported = false;
  private retry?: NodeJS.Timeout;

  constructor(private readonly options: PgListenerOptions) {
    if (!CHANNEL.test(options.channel)) throw new Error(`LISTEN channel ${options.channel} is not a plain identifier`);
  }

  /** True while LISTEN is in place. */
  get listening(): boolean {
    return this.client !== undefined;
  }

  /** Resolves after the first attempt, whether or not it connected (it keeps retrying). */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    await this.connect();
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    client?.removeAllListeners('end');
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (!this.running) return;
    const { databaseUrl, channel, applicationName, retryMs = 5000 } = this.options;
    const client = new Client({ connectionString: databaseUrl, application_name: applicationName });
    let lost = false;
    const lose = (error: Error) => {
      if (lost) return;
      lost = true;
      if (this.client === client) this.client = undefined;
      void client.end().catch(() => undefined);
      if (!this.running) return;
      if (!this.lostReported) {
        this.lostReported = true;
        this.options.onLost?.(error.message, error);
      }
      this.retry = setTimeout(() => void this.connect(), retryMs);
      this.retry.unref();
    };
    client.on('notification', (message) => {
      if (message.channel === channel) this.options.onNotification(message.payload);
    });
    client.on('error', (error) => lose(error));
    // Not stopped by us: the server or the network ended it.
    client.on('end', () => lose(new Error('Connection ended unexpectedly')));
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
    } catch (error) {
      lose(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (lost) return;
    if (!this.running) {
      lost = true;
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.lostReported = false;
    this.options.onListening?.();
  }
}
