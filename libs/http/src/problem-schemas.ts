import { z } from 'zod';
import { PROBLEM_CONTENT_TYPE, reasonPhrase } from '@rental/problem';
import type { ResponseSpec } from './operation';

export const violationSchema = z.object({
  propertyPath: z.string().describe('Path of the offending field, for example items[0].price; empty for the whole body'),
  message: z.string(),
  code: z.string().describe('Stable machine-readable code'),
});

export const problemSchema = z
  .object({
    type: z.string().describe('URL of the page that explains this type of problem and how to fix it: {base}/problems/{code}'),
    title: z.string().describe('Short summary of the type of problem, in its own words; the same for every problem of one type'),
    status: z.number().int(),
    detail: z.string(),
    instance: z.string().optional().describe('This occurrence: urn:request:<request id>, the X-Request-Id of the answer'),
    violations: z.array(violationSchema).optional(),
  })
  .catchall(z.unknown())
  .meta({ id: 'Problem' });

export const validationProblemSchema = problemSchema.extend({ violations: z.array(violationSchema) }).meta({ id: 'ValidationProblem' });

const descriptions: Record<number, string> = {
  400: 'Invalid input',
  401: 'Missing or invalid API key',
  403: 'Resource of another partner, or no access',
  404: 'Resource not found',
  405: 'Method not allowed on this path',
  409: 'Conflict with the current state',
  413: 'Request body too large',
  422: 'Validation or business rule failure',
  429: 'Rate limit exceeded',
  500: 'Server error',
  502: 'An outside party (a lender, a provider) failed; nothing was changed',
  503: 'A dependency is unavailable; retry later',
};

/** Problem+json responses of the given statuses, for an operation's `responses`. */
export function problemResponses(...statuses: number[]): Record<number, ResponseSpec> {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        description: descriptions[status] ?? reasonPhrase(status),
        contentType: PROBLEM_CONTENT_TYPE,
        schema: status === 422 ? validationProblemSchema : problemSchema,
      },
    ]),
  );
}

/** A 429 as the gateway answers it, with the seconds to wait in Retry-After. */
export function rateLimitedResponse(description: string): Record<number, ResponseSpec> {
  return {
    429: {
      ...problemResponses(429)[429],
      description,
      headers: { 'Retry-After': { description: 'Seconds to wait before the next request', schema: z.string(), required: true } },
    },
  };
}
