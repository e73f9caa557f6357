import { randomUUID } from 'node:crypto';
import { Client, Notification } from 'pg';
import type { Knex } from 'knex';
import type { Logger } from '@rental/logger';

export interface NotificationListenerOptions {
  url: string;
  channel: string;
  log: Logger;
  /** Each notification on the channel. */
  onNotification(payload: string): void;
  /**
   * true once LISTEN is in effect on a (new) connection; false as soon as that connection is
   * lost. Between the two, notifications may be missed: whoever caches on them must not.
   */
  onListening(listening: boolean): void;
  /** Names the connection in pg_stat_activity; default `listen <channel>`. */
  applicationName?: string;
  /** Pause between connection attempts. */
  retryMs?: number;
  /** A `SELECT 1` this often finds a connection that died without a word (no FIN, no error). */
  heartbeatMs?: number;
}

const delay = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/**
 * One dedicated connection that LISTENs on a channel and keeps reconnecting while the service
 * runs (a pooled connection cannot: the pool hands it to queries and closes it when idle).
 * A hand-made client rather than pg-listen: see docs/decisions.md (issue 18).
 */
export class NotificationListener {
  private readonly stopping = new AbortController();
  private running?: Promise<void>;
  private client?: Client;
  private listening = false;

  constructor(private readonly options: NotificationListenerOptions) {}

  /** Connects in the background; resolves after the first attempt, listening or not. */
  start(): Promise<void> {
    let firstAttempt!: () => void;
    const attempted = new Promise<void>((resolve) => {
      firstAttempt = resolve;
    });
    this.running = this.run(firstAttempt);
    return attempted;
  }

  isListening(): boolean {
    return this.listening;
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.client?.end().catch(() => undefined);
    await this.running;
  }

  private async run(attempted: () => void): Promise<void> {
    const { retryMs = 500 } = this.options;
    while (!this.stopping.signal.aborted) {
      await this.listenUntilLost(attempted);
      if (!this.stopping.signal.aborted) await delay(retryMs, this.stopping.signal);
    }
  }

  private async listenUntilLost(attempted: () => void): Promise<void> {
    const { url, channel, log, heartbeatMs = 10_000, applicationName = `listen ${channel}` } = this.options;
    const client = new Client({
      connectionString: url,
      application_name: applicationName,
      keepAlive: true,
      connectionTimeoutMillis: 3000,
      query_timeout: 3000,
    });
    let lost!: () => void;
    const closed = new Promise<void>((resolve) => {
      lost = resolve;
    });
    client.on('error', (error) => {
      log.warn({ err: error, channel }, 'notification connection failed');
      lost();
    });
    client.on('end', () => lost());
    client.on('notification', (message: Notification) => {
      if (message.channel === channel) this.options.onNotification(message.payload ?? '');
    });
    this.client = client;
    let heartbeat: NodeJS.Timeout | undefined;
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
      if (this.stopping.signal.aborted) return;
      this.setListening(true);
      attempted();
      heartbeat = setInterval(() => client.query('SELECT 1').catch(() => lost()), heartbeatMs);
      await closed;
    } catch (error) {
      if (!this.stopping.signal.aborted) log.warn({ err: error, channel }, 'could not listen for notifications; retrying');
    } finally {
      clearInterval(heartbeat);
      this.setListening(false);
      attempted();
      this.client = undefined;
      await client.end().catch(() => undefined);
    }
  }

  private setListening(listening: boolean): void {
    if (this.listening === listening) return;
    this.listening = listening;
    if (listening) this.options.log.info({ channel: this.options.channel }, 'listening for notifications');
    else this.options.log.warn({ channel: this.options.channel }, 'stopped listening for notifications');
    this.options.onListening(listening);
  }
}

/**
 * Runs `work` in a transaction that ends with a NOTIFY on `channel` (delivered only if it
 * commits), and returns only after that notification came back to a connection of our own that
 * listened before the commit: Postgres has then sent it on to every listener.
 */
export async function transactionWithNotification<T>(db: Knex, channel: string, work: (trx: Knex.Transaction) => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const token = randomUUID();
  const connection: Client = await db.client.acquireConnection();
  let onNotification!: (message: Notification) => void;
  const delivered = new Promise<void>((resolve) => {
    onNotification = (message) => {
      if (message.channel === channel && message.payload === token) resolve();
    };
  });
  connection.on('notification', onNotification);
  let timer: NodeJS.Timeout | undefined;
  try {
    await connection.query(`LISTEN ${connection.escapeIdentifier(channel)}`);
    const result = await db.transaction(async (trx) => {
      const value = await work(trx);
      await trx.raw('SELECT pg_notify(?, ?)', [channel, token]);
      return value;
    });
    await Promise.race([
      delivered,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`the change committed, but its notification on ${channel} did not come back within ${timeoutMs} ms`)),
          timeoutMs,
        );
      }),
    ]);
    return result;
  } finally {
    clearTimeout(timer);
    connection.off('notification', onNotification);
    await connection.query(`UNLISTEN ${connection.escapeIdentifier(channel)}`).catch(() => undefined);
    await db.client.releaseConnection(connection);
  }
}
