import { z } from 'zod';
import { DomainError, Violation, invalidInput } from './domain-error';

/**
 * The violations and messages several services answer with, written once so a partner reads the
 * same words for the same mistake wherever it happens.
 */
export const REQUIRED_MESSAGE = 'This value is required.';
export const NOT_BLANK_MESSAGE = 'This value should not be blank.';
export const INVALID_EMAIL_MESSAGE = 'This value is not a valid email address.';
export const AT_MOST_TWO_DECIMALS_MESSAGE = 'This value must have at most two decimals.';
export const NOT_NEGATIVE_MESSAGE = 'This value should be 0 or more.';

export function tooLongMessage(max: number): string {
  return `This value is too long; at most ${max} characters.`;
}

/** A value outside the allowed ones (`validation.choice`), naming them. */
export function choiceMessage(allowed: readonly unknown[]): string {
  return `The value you selected is not a valid choice. Allowed values: ${allowed.map(String).join(', ')}.`;
}

export function choiceViolation(propertyPath: string, allowed: readonly unknown[]): Violation {
  return { propertyPath, code: 'validation.choice', message: choiceMessage(allowed) };
}

/** A missing field, with the generic message unless the field says what it needs. */
export function requiredViolation(propertyPath: string, message = REQUIRED_MESSAGE): Violation {
  return { propertyPath, code: 'validation.required', message };
}

/** Text that must say something: trimmed, then at least one character. */
export function nonBlankText(): z.ZodString {
  return z.string().trim().min(1, NOT_BLANK_MESSAGE);
}

/** Text that must say something, at most `max` characters, both refusals in our words. */
export function boundedText(max: number): z.ZodString {
  return nonBlankText().max(max, tooLongMessage(max));
}

export function emailAddress(): z.ZodEmail {
  return z.email(INVALID_EMAIL_MESSAGE);
}

/** One line per violation, `path: message`, the path written even when it is empty. */
const listed = (violations: Violation[]) => violations.map((v) => `${v.propertyPath}: ${v.message}`).join('\n');

/** A 400 for a query string that breaks its schema. */
export function malformedQuery(violations: Violation[]): DomainError {
  return invalidInput('request.invalid_query', listed(violations), violations);
}

/** A 400 for a body whose every malformed field the specification answers with 400 rather than 422. */
export function malformedBody(violations: Violation[]): DomainError {
  return invalidInput('request.invalid_body', listed(violations), violations);
}
