import { ApiClient, PrivatePostgres, Stack, WebhookReceiver, createTestPartner } from '@rental/testkit';
import { EventPublisher, bootOwnStack, registerEndpoint, requestsFor, sleep, waitForRequests } from './support';

// Stops Postgres, so it runs on a stack (and a Postgres server) of its own.
let postgres: PrivatePostgres;
let stack: Stack;
let publisher: EventPublisher;
let hook: WebhookReceiver;

beforeAll(async () => {
  postgres = await PrivatePostgres.launch();
  stack = await bootOwnStack({ postgresUrl: postgres.url });
  publisher = await EventPublisher.connect(stack);
  hook = await WebhookReceiver.start();
}, 120_000);

afterAll(async () => {
  await publisher?.close();
  await hook?.close();
  await stack?.stop();
  await postgres?.dispose();
});

describe('Postgres down while events arrive', () => {
  it('when an event comes while Postgres is down, then it is not lost: it is delivered once Postgres is back, without a restart', async () => {
    const partner = await createTestPartner(stack);
    await registerEndpoint(new ApiClient(stack.gatewayUrl, partner.key), `${hook.url}/pg`);
    const pid = stack.processes.notifications.pid;

    await postgres.stop();
    const event = await publisher.publish(publisher.event(partner.id));
    await sleep(3000);
    expect(requestsFor(hook, event.id)).toEqual([]);
    await postgres.start();

    await waitForRequests(hook, event.id, 1, 20_000);
    await sleep(1000);
    expect(requestsFor(hook, event.id)).toHaveLength(1);
    expect([stack.processes.notifications.pid, stack.processes.notifications.isRunning()]).toEqual([pid, true]);
  }, 60_000);
});
