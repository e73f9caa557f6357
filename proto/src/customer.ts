import { z } from 'zod';

// The customer's API (/customer/v1, the link token is the credential): case-workflow answers the
// offer, documents the uploads and answers; both speak of the same token and requested items.

/** The path of every customer operation names the customer's link token. */
export const customerTokenParams = z.object({ token: z.string().min(1).max(200) });

/** A requested item as the customer sees it (customer audience only). */
export const customerRequestedItemSchema = z.object({
  id: z.number().int(),
  type: z.enum(['information', 'document', 'fill_and_return']),
  label: z.string(),
  status: z.string(),
  category: z.string(),
  optional: z.boolean(),
  dueAt: z.string().nullable(),
}).meta({ id: 'CustomerRequestedItem' });
