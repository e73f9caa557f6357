import { z } from 'zod';
import { validatedHandler } from './validated';

const event = z.object({ id: z.string() });

function recorder() {
  const handled: { value: unknown; requestId: string | undefined }[] = [];
  const errors: string[] = [];
  const handler = validatedHandler(event, { error: (_details, message) => errors.push(message) }, 'a message', async (value, requestId) => {
    handled.push({ value, requestId });
  });
  return { handled, errors, handler };
}

describe('validated handler', () => {
  it('when a message matches the schema, then its parsed value and request id go to the handler', async () => {
    const { handled, errors, handler } = recorder();

    await handler({ subject: 's', data: { id: 'E1', extra: 1 }, sequence: 1, deliveryCount: 1, requestId: 'r-1' });

    expect([handled, errors]).toEqual([[{ value: { id: 'E1' }, requestId: 'r-1' }], []]);
  });

  it('when a message does not match the schema, then it is logged and dropped without reaching the handler', async () => {
    const { handled, errors, handler } = recorder();

    await handler({ subject: 's', data: { id: 7 }, sequence: 2, deliveryCount: 1 });

    expect([handled, errors]).toEqual([[], ['dropping a message that is not a valid event']]);
  });
});
