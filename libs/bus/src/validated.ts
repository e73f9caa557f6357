import type { z } from 'zod';
import type { ReceivedMessage } from './bus';

/**
 * A consumer's handler of messages that must match `schema`: a message that does not is logged
 * and dropped (acked), since redelivering what cannot be read would block the stream forever; a
 * valid one goes to `handle`, and the message is acked once it resolved.
 */
export function validatedHandler<T>(
  schema: z.ZodType<T>,
  log: { error(details: object, message: string): void },
  what: string,
  handle: (value: T, requestId: string | undefined) => Promise<void>,
): (message: ReceivedMessage<unknown>) => Promise<void> {
  return async ({ data, sequence, requestId }) => {
    const parsed = schema.safeParse(data);
    if (!parsed.success) {
      log.error({ sequence, requestId, issues: parsed.error.issues.slice(0, 5) }, `dropping ${what} that is not a valid event`);
      return;
    }
    await handle(parsed.data, requestId);
  };
}
