import type { z } from 'zod';
import { Violation } from './domain-error';
import { choiceViolation, requiredViolation } from './violations';

/** `items[0].price` from zod's path `['items', 0, 'price']`, the propertyPath partners see. */
export function propertyPath(path: readonly PropertyKey[], prefix = ''): string {
  return path.reduce<string>((acc, segment) => {
    if (typeof segment === 'number') return `${acc}[${segment}]`;
    return acc ? `${acc}.${String(segment)}` : String(segment);
  }, prefix);
}

function describeExpected(issue: z.core.$ZodIssueInvalidType): string {
  return issue.expected === 'int' ? 'integer' : issue.expected;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>((value, key) => (value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined), input);
}

/** zod's own messages start like this; a schema's custom message is kept as written. */
const isDefaultMessage = (message: string) => /^Invalid (input|option|value)/.test(message);

/**
 * Turns zod issues into violations with stable codes; unknown keys become one violation each.
 * `input` is the value that was parsed: it tells a missing field from a wrong one.
 */
export function zodViolations(error: z.ZodError, input: unknown, prefix = ''): Violation[] {
  return error.issues.flatMap((issue): Violation[] => {
    const path = propertyPath(issue.path, prefix);
    switch (issue.code) {
      case 'invalid_type':
        if (valueAt(input, issue.path) === undefined) return [requiredViolation(path)];
        return [
          {
            propertyPath: path,
            code: 'validation.type',
            message: isDefaultMessage(issue.message) ? `This value should be of type ${describeExpected(issue)}.` : issue.message,
          },
        ];
      case 'invalid_value':
        return [choiceViolation(path, issue.values)];
      case 'unrecognized_keys':
        return issue.keys.map((key) => ({
          propertyPath: propertyPath([...issue.path, key], prefix),
          code: 'validation.unknown_field',
          message: 'This field is not allowed.',
        }));
      case 'too_small':
        return [{ propertyPath: path, code: 'validation.too_small', message: issue.message }];
      case 'too_big':
        return [{ propertyPath: path, code: 'validation.too_big', message: issue.message }];
      case 'invalid_format':
        return [{ propertyPath: path, code: 'validation.format', message: issue.message }];
      case 'custom': {
        const code = typeof issue.params?.code === 'string' ? issue.params.code : 'validation.invalid';
        return [{ propertyPath: path, code, message: issue.message }];
      }
      default:
        return [{ propertyPath: path, code: 'validation.invalid', message: issue.message }];
    }
  });
}
