import { z } from 'zod';

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

/**
 * What every operation of the customer's API shares: the tag, the link token in the path, and
 * what every link can answer (404 unknown link, 410 expired, 422 a refused input or move, 503).
 * Each service builds its operations with operationFamily(CUSTOMER_API) of @rental/http.
 */
export const CUSTOMER_API = { tags: ['Customer'], params: customerTokenParams, problems: [404, 410, 422, 503] } as const;
