import type { z } from 'zod';
import { DomainError, UNSTORABLE_TEXT_MESSAGE, firstUnstorableText, validationFailed } from '@rental/problem';
import type { AppliedCallbacks, DocumentsPort } from './ports';
import type { CaseLocks, CaseReads } from '../case/ports';
import type { SignedMessages } from '../signing/ports';
import { parseOrFail } from './validation';

/** What every outside party's signed callback (a lender's decision, the signing provider's envelope) needs. */
export interface SignedCallbackDependencies {
  store: CaseReads & CaseLocks & AppliedCallbacks;
  documents: DocumentsPort;
  signed: SignedMessages;
}

export const invalidSignature = () =>
  new DomainError(
    'unauthenticated',
    'webhook.invalid_signature',
    'The webhook-signature is missing or wrong, or webhook-timestamp is more than 5 minutes away.',
  );

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    // Not JSON: the schema refuses it as the text it is.
    return raw;
  }
}

/**
 * A Standard Webhooks callback, the signature first: nothing about a case is told to a caller
 * that cannot sign. Then its webhook-id (an event is applied at most once per id) and its body,
 * parsed against the sender's event schema.
 */
export function signedEvent<S extends z.ZodType>(
  signed: SignedMessages,
  secret: string,
  raw: string,
  headers: Record<string, string | undefined>,
  schema: S,
): { webhookId: string; event: z.infer<S> } {
  if (!signed.verify(secret, raw, headers)) throw invalidSignature();
  const event = parseOrFail(schema, parseJson(raw));
  // A signed body is still outside input: a NUL in a reason cannot be stored, so it is refused like any unfit field.
  const unstorable = firstUnstorableText(event);
  if (unstorable !== undefined) throw validationFailed([{ propertyPath: unstorable, code: 'validation.invalid_text', message: UNSTORABLE_TEXT_MESSAGE }]);
  return { webhookId: headers['webhook-id'] as string, event };
}
