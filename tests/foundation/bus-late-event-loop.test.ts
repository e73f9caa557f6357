import { randomBytes, randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { connect } from 'nats';
import { Bus } from '@rental/bus';
import { createLogger } from '@rental/logger';
import { waitFor } from '@rental/testkit';

// A consumer whose event loop stalls across the end of one of its pulls still gets the message the
// server sent into that pull, at once and not only on redelivery after ack_wait (30 s). That is
// what a loaded machine does to a service: with a loop of fetch() the message arrived while the
// loop stood still, the fetch's own timer ran first when it moved again, and the message reached no
// subscription. A stream of its own (environment and database name of this file), deleted at the end.

const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const databaseName = `bus_late_loop_${randomBytes(4).toString('hex')}`;
const DURABLE = 'late-loop';
const SUBJECT = 'late.loop';

/**
 * Runs beside this test's stalled thread: watches the consumer's pull requests, and on the second
 * one asks the test thread to stall from 400 ms before the pull's expiry, publishes the message
 * 100 ms before it (so the server sends it into that pull), and lets the test thread go 300 ms
 * after nats.js's own fetch timer (5 % after the expiry).
 */
const STALLER = `
const { parentPort, workerData } = require('node:worker_threads');
const { connect } = require('nats');
const { natsUrl, pullSubject, eventSubject, messageId, stall } = workerData;
const flag = new Int32Array(stall);
(async () => {
  const connection = await connect({ servers: natsUrl });
  const jetstream = connection.jetstream();
  let pulls = 0;
  connection.subscribe(pullSubject, {
    callback: (_error, request) => {
      pulls += 1;
      if (pulls !== 2) return;
      const expiresMs = JSON.parse(new TextDecoder().decode(request.data)).expires / 1e6;
      setTimeout(() => parentPort.postMessage({ stallFor: expiresMs }), expiresMs - 400);
      setTimeout(async () => {
        const sentAt = Date.now();
        await jetstream.publish(eventSubject, JSON.stringify({ label: 'sent into the pull' }), { msgID: messageId });
        parentPort.postMessage({ sentAt });
      }, expiresMs - 100);
      setTimeout(async () => {
        Atomics.store(flag, 0, 1);
        Atomics.notify(flag, 0);
        await connection.drain();
      }, expiresMs * 1.05 + 300);
    },
  });
  await connection.flush();
  parentPort.postMessage({ watching: true });
})();
`;

let bus: Bus;

beforeAll(async () => {
  bus = new Bus({ url: natsUrl, environment: 'sandbox', databaseName, serviceName: 'bus-late-loop-test', log: createLogger('bus-late-loop-test', 'error') });
  await bus.start();
});

afterAll(async () => {
  await bus.close();
  const connection = await connect({ servers: natsUrl });
  await (await connection.jetstreamManager()).streams.delete(bus.stream);
  await connection.close();
});

describe('a consumer whose event loop stalls at the end of a pull', () => {
  it('when the server sends a message into the pull while the loop stands still past the pull’s end, then the handler gets it within 2 s of the loop moving again', async () => {
    const stall = new SharedArrayBuffer(4);
    const worker = new Worker(STALLER, {
      eval: true,
      workerData: {
        natsUrl,
        pullSubject: `$JS.API.CONSUMER.MSG.NEXT.${bus.stream}.${DURABLE}`,
        eventSubject: bus.subject(SUBJECT),
        messageId: randomUUID(),
        stall,
      },
    });
    let sentAt: number | undefined;
    let movedAt: number | undefined;
    await new Promise<void>((resolve, reject) => {
      worker.once('error', reject);
      worker.on('message', (message: { watching?: true; stallFor?: number; sentAt?: number }) => {
        if (message.watching) resolve();
        if (message.sentAt) sentAt = message.sentAt;
        if (message.stallFor) {
          // The whole thread stands still, as under a long synchronous task, until the worker lets it go.
          Atomics.wait(new Int32Array(stall), 0, 0, message.stallFor * 2);
          movedAt = Date.now();
        }
      });
    });

    const received: number[] = [];
    bus.consume<{ label: string }>({
      subject: SUBJECT,
      durable: DURABLE,
      handler: async () => {
        received.push(Date.now());
      },
    });

    await waitFor(() => (movedAt !== undefined && sentAt !== undefined ? true : undefined), { timeoutMs: 20_000, what: 'the stall around the second pull' });
    await waitFor(() => (received.length > 0 ? true : undefined), { timeoutMs: 5000, what: 'the message sent into the pull' }).catch(() => undefined);
    await worker.terminate();

    expect(received).toHaveLength(1);
    expect(received[0]! - movedAt!).toBeLessThan(2000);
    expect(sentAt!).toBeLessThan(movedAt!);
  }, 40_000);
});
