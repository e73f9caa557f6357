import { z } from 'zod';
import type { ResponseSpec } from './operation';

/** Fixed page size of every collection, stated in the API description. */
export const PAGE_SIZE = 30;
const MAX_PAGE = 100000;

export const pageQuery = z.object({
  page: z.coerce
    .number({ message: 'page must be an integer of at least 1' })
    .int('page must be an integer of at least 1')
    .min(1, 'page must be an integer of at least 1')
    .max(MAX_PAGE, `page must be at most ${MAX_PAGE}`)
    .default(1)
    .describe(`1-based page number; every page holds up to ${PAGE_SIZE} items`),
});

export function pageWindow(page: number): { limit: number; offset: number } {
  return { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE };
}

/** The answer to a GET of one page of a collection (`page`, PAGE_SIZE items): 200 with an array of `items`, "A page of <what>". */
export function pageOf(what: string, items: z.ZodType): Record<number, ResponseSpec> {
  return { 200: { description: `A page of ${what}`, schema: z.array(items) } };
}
