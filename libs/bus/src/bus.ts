import {
  AckPolicy,
  DeliverPolicy,
  JetStreamClient,
  JetStreamManager,
  JsMsg,
  MsgHdrs,
  NatsConnection,
  RetentionPolicy,
  StorageType,
  connect,
  headers,
  nanos,
} from 'nats';
import { type Logger, TRACEPARENT_HEADER, type TraceOrigin, continueTrace, withTrace } from '@rental/logger';
import { busNames } from './names';

export interface BusOptions {
  url: string;
  environment: string;
  databaseName: string;
  /** Connection name, and the durable name of this service's consumers. */
  serviceName: string;
  log: Logger;
}

export interface ReceivedMessage<T = unknown> {
  subject: string;
  data: T;
  /** Stream sequence, increasing in publish order. */
  sequence: number;
  deliveryCount: number;
  /** The request that caused the message, when it came from one. */
  requestId?: string;
}

export interface ConsumerOptions<T> {
  /** Subject relative to the stack's prefix, for example `mail.requested`; may end in a wildcard. */
  subject: string;
  /** Durable name; defaults to the service name. */
  durable?: string;
  /**
   * The durable kept for upgrades: one an earlier version of this consumer used, with the subject
   * it filtered. Its messages go to the same handler while it exists, and it is never created, so
   * what publishers not yet upgraded still send on that subject is handled (a new durable starts
   * at the stream's first message; changing an existing durable's filter would skip what it had
   * not read yet).
   */
  upgradeDurable?: { durable: string; subject: string };
  batch?: number;
  handler: (message: ReceivedMessage<T>) => Promise<void>;
}

/** JetStream's API error code of a consumer that does not exist. */
const CONSUMER_NOT_FOUND = 10014;

/** The headers that carry the request id and the W3C trace context of the work a message came from. */
const REQUEST_ID_HEADER = 'X-Request-Id';
const DUPLICATE_WINDOW_MS = 15 * 60 * 1000;
const RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
const REDELIVERY_DELAY_MS = 2000;
/**
 * How long one pull request of a consumer stays open at the server before the client sends the
 * next. Heartbeats come at half of it, so a NATS restart or a lost consumer is noticed within one.
 */
const PULL_EXPIRES_MS = 5000;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * One NATS connection per process. It connects in the background and keeps reconnecting, so a
 * service starts (and reports not ready) while NATS is down, and resumes by itself after.
 */
export class Bus {
  readonly stream: string;
  private readonly prefix: string;
  private connection?: NatsConnection;
  private jetstream?: JetStreamClient;
  private manager?: JetStreamManager;
  private streamReady = false;
  private closing = false;
  private readonly consumers: Promise<void>[] = [];

  constructor(private readonly options: BusOptions) {
    const names = busNames(options.environment, options.databaseName);
    this.stream = names.stream;
    this.prefix = names.prefix;
  }

  subject(name: string): string {
    return `${this.prefix}.${name}`;
  }

  isConnected(): boolean {
    return Boolean(this.connection && !this.connection.isClosed() && this.streamReady && this.connection.info);
  }

  /** Starts connecting; resolves once connected and the stream exists. */
  async start(): Promise<void> {
    this.connection = await connect({
      servers: this.options.url,
      name: this.options.serviceName,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
      waitOnFirstConnect: true,
      pingInterval: 5000,
    });
    this.watchStatus(this.connection);
    this.jetstream = this.connection.jetstream();
    this.manager = await this.connection.jetstreamManager();
    await this.ensureStream();
  }

  private watchStatus(connection: NatsConnection): void {
    void (async () => {
      for await (const status of connection.status()) {
        if (status.type === 'disconnect') {
          this.streamReady = false;
          this.options.log.warn('nats disconnected');
        } else if (status.type === 'reconnect') {
          this.options.log.info('nats reconnected');
          await this.ensureStream().catch((error) => this.options.log.warn({ err: error }, 'stream check after reconnect failed'));
        }
      }
    })();
  }

  private async ensureStream(): Promise<void> {
    const manager = this.manager;
    if (!manager) throw new Error('bus not started');
    const config = {
      name: this.stream,
      subjects: [`${this.prefix}.>`],
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      max_age: nanos(RETENTION_MS),
      duplicate_window: nanos(DUPLICATE_WINDOW_MS),
    };
    try {
      await manager.streams.info(this.stream);
    } catch {
      await manager.streams.add(config).catch(async (error: Error) => {
        if (!/already in use|exists/i.test(error.message)) throw error;
      });
    }
    this.streamReady = true;
  }

  /**
   * Publishes with the message id as JetStream's Nats-Msg-Id: a republish inside the window is
   * dropped. The request id and the trace context of the work that caused the message travel in
   * headers (`X-Request-Id`, `traceparent`).
   */
  async publish(subject: string, data: unknown, messageId: string, origin: TraceOrigin = {}): Promise<void> {
    if (!this.jetstream) throw new Error('bus not connected');
    let messageHeaders: MsgHdrs | undefined;
    if (origin.requestId || origin.traceparent) {
      messageHeaders = headers();
      if (origin.requestId) messageHeaders.set(REQUEST_ID_HEADER, origin.requestId);
      if (origin.traceparent) messageHeaders.set(TRACEPARENT_HEADER, origin.traceparent);
    }
    try {
      await this.jetstream.publish(subject, JSON.stringify(data), { msgID: messageId, timeout: 5000, headers: messageHeaders });
    } catch (error) {
      // The stream may be gone (a wiped NATS store); recreate it for the next attempt, once for
      // the messages of a batch that failed together.
      if (this.streamReady) {
        this.streamReady = false;
        await this.ensureStream().catch(() => undefined);
      }
      throw error;
    }
  }

  /**
   * A durable pull consumer. Messages are handled one at a time in stream order and acked only
   * after the handler resolved (its work committed); a failing message is redelivered later.
   */
  consume<T>(options: ConsumerOptions<T>): void {
    const durable = options.durable ?? this.options.serviceName;
    this.consumers.push(this.pull(durable, options.subject, true, options));
    if (options.upgradeDurable) this.consumers.push(this.pull(options.upgradeDurable.durable, options.upgradeDurable.subject, false, options));
  }

  /** Fetches and handles the messages of one durable; creates it (or sets its filter) when `create`, otherwise stops when it does not exist. */
  private async pull<T>(durable: string, relativeSubject: string, create: boolean, options: ConsumerOptions<T>): Promise<void> {
    const subject = this.subject(relativeSubject);
    const log = this.options.log.child({ consumer: durable, subject });
    while (!this.closing) {
      try {
        if (!this.connection || !this.manager || !this.jetstream) {
          await sleep(500);
          continue;
        }
        if (create) {
          await this.manager.consumers.add(this.stream, {
            durable_name: durable,
            ack_policy: AckPolicy.Explicit,
            deliver_policy: DeliverPolicy.All,
            filter_subject: subject,
            ack_wait: nanos(30_000),
            max_deliver: -1,
          });
        } else if (!(await this.consumerExists(this.manager, durable))) {
          return;
        }
        const consumer = await this.jetstream.consumers.get(this.stream, durable);
        // consume(), not a loop of fetch(): a fetch ends on a client timer 5 % after the server's
        // expiry, and a message the server sent just before that expiry but read after the timer
        // (an event loop late by more than the 5 %) reached no subscription and came again only
        // after ack_wait, 30 s late. consume() keeps one subscription across its pulls. A missing
        // consumer or stream ends it with an error, so the loop here creates them again.
        const messages = await consumer.consume({ max_messages: options.batch ?? 100, expires: PULL_EXPIRES_MS, abort_on_missing_resource: true });
        for await (const message of messages) {
          await this.handle(message, options.handler, log);
          if (this.closing) break;
        }
        if (!this.closing) await sleep(1000);
      } catch (error) {
        if (this.closing) break;
        log.warn({ err: error }, 'consumer interrupted; retrying');
        await sleep(1000);
      }
    }
  }

  private async consumerExists(manager: JetStreamManager, durable: string): Promise<boolean> {
    try {
      await manager.consumers.info(this.stream, durable);
      return true;
    } catch (error) {
      if ((error as { api_error?: { err_code?: number } }).api_error?.err_code === CONSUMER_NOT_FOUND) return false;
      throw error;
    }
  }

  private async handle<T>(message: JsMsg, handler: (message: ReceivedMessage<T>) => Promise<void>, log: Logger): Promise<void> {
    let data: T;
    try {
      data = message.json<T>();
    } catch {
      log.error({ subject: message.subject, seq: message.seq }, 'dropping a message that is not JSON');
      message.term();
      return;
    }
    const requestId = message.headers?.get(REQUEST_ID_HEADER) || undefined;
    const trace = continueTrace({ traceparent: message.headers?.get(TRACEPARENT_HEADER), requestId });
    await withTrace(trace, async () => {
      try {
        await handler({ subject: message.subject, data, sequence: message.seq, deliveryCount: message.info.redeliveryCount, requestId });
        message.ack();
        log.info({ seq: message.seq }, 'message handled');
      } catch (error) {
        log.warn({ err: error, seq: message.seq }, 'message handling failed; it will be redelivered');
        message.nak(REDELIVERY_DELAY_MS);
      }
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.connection && !this.connection.isClosed()) {
      await this.connection.drain().catch(() => this.connection?.close());
    }
    await Promise.allSettled(this.consumers);
  }
}
