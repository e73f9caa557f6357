import { z } from 'zod';
import { type OperationSpec, type ResponseSpec, defineOperation, problemResponses } from '@rental/http';

// The customer's API (/customer/v1, the link token is the credential): case-workflow answers the
// offer, documents the uploads and answers; both speak of the same token and requested items.

/** The path of every customer operation names the customer's link token. */
export const customerTokenParams = z.object({ token: z.string().min(1).max(200) });

/** A requested item as the customer sees it (customer audience only). */
export const customerRequestedItemSchema = z
  .object({
    id: z.number().int(),
    type: z.enum(['information', 'document', 'fill_and_return']),
    label: z.string(),
    question: z.string().nullable().describe('What an information request asks (answer it with …/information/{id}/respond); null for documents'),
    status: z.string(),
    category: z.string(),
    optional: z.boolean(),
    dueAt: z.string().nullable(),
  })
  .meta({ id: 'CustomerRequestedItem' });

type CustomerSpec = Omit<OperationSpec, 'tags' | 'params' | 'responses'> & {
  /** Only where the path names more than the token. */
  params?: z.ZodObject;
  returns: Record<number, ResponseSpec>;
  /** Problems of the operation's own rules, beyond those of every link. */
  problems?: number[];
};

type CustomerOperation<S extends CustomerSpec> = Omit<S, 'returns' | 'problems' | 'params'> & {
  params: S['params'] extends z.ZodObject ? S['params'] : typeof customerTokenParams;
  tags: string[];
  responses: Record<number, ResponseSpec>;
};

/**
 * An operation of the customer's API: named by the link token, answering what every link can
 * (404 unknown link, 410 expired, 422 a refused input or move, 503) and the problems it names.
 */
export function customerOperation<const S extends CustomerSpec>(spec: S): CustomerOperation<S> {
  const { returns, problems = [], ...operation } = spec;
  return defineOperation({
    params: customerTokenParams,
    ...operation,
    tags: ['Customer'],
    responses: { ...returns, ...problemResponses(404, 410, 422, 503, ...problems) },
  }) as unknown as CustomerOperation<S>;
}
