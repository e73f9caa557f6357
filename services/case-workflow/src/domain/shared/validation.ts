import type { z } from 'zod';
import { DomainError, Violation, requiredViolation, validationFailed, zodViolations } from '@rental/problem';

function valueAt(input: unknown, path: string): unknown {
  const keys = path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter(Boolean);
  return keys.reduce<unknown>((value, key) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), input);
}

/**
 * zodViolations, except that a missing enum field is `validation.required` like every other
 * missing field (zod reports it as a wrong choice).
 */
export function violationsOf(error: z.ZodError, input: unknown, prefix = ''): Violation[] {
  return zodViolations(error, input, prefix).map((violation) => {
    if (violation.code !== 'validation.choice') return violation;
    const relative =
      prefix && violation.propertyPath.startsWith(prefix) ? violation.propertyPath.slice(prefix.length).replace(/^\./, '') : violation.propertyPath;
    return valueAt(input, relative) === undefined ? requiredViolation(violation.propertyPath) : violation;
  });
}

/** The parsed value, or a 422 with one violation per problem. */
export function parseOrFail<T extends z.ZodType>(schema: T, input: unknown, prefix = ''): z.infer<T> {
  const result = schema.safeParse(input);
  if (!result.success) throw invalidBody(result.error, input, prefix);
  return result.data;
}

export function invalidBody(error: z.ZodError, input: unknown, prefix = ''): DomainError {
  return validationFailed(violationsOf(error, input, prefix));
}
