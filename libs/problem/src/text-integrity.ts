import { DomainError, invalidInput } from './domain-error';

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Deepest nesting of arrays and objects a JSON body may have. Our bodies need a handful of
 * levels; a recursive walk of a far deeper one (JSON.parse reads 5,000 levels without trouble)
 * overflows the stack, in a walk like this one, in zod or in JSON.stringify.
 */
const MAX_JSON_DEPTH = 64;

/** A NUL character cannot be stored in Postgres text; an unpaired surrogate is not Unicode at all. */
function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && !UNPAIRED_SURROGATE.test(text);
}

export type TextIntegrityProblem = { kind: 'unstorable_text'; propertyPath: string } | { kind: 'too_deep' };

/**
 * The first string (member name or value) of a parsed JSON value that cannot be stored as text,
 * in document order, or a value nested deeper than MAX_JSON_DEPTH. Iterative, so no depth of
 * input can overflow the stack here.
 */
export function firstTextIntegrityProblem(value: unknown): TextIntegrityProblem | undefined {
  const pending: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  while (pending.length > 0) {
    const { value: current, path, depth } = pending.pop()!;
    if (typeof current === 'string') {
      if (!isStorableText(current)) return { kind: 'unstorable_text', propertyPath: path };
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) return { kind: 'too_deep' };
    const children = Array.isArray(current)
      ? current.map((item, index) => ({ value: item, path: `${path}[${index}]`, depth: depth + 1 }))
      : Object.entries(current).map(([name, member]) => ({ name, value: member, path: path ? `${path}.${name}` : name, depth: depth + 1 }));
    // Onto the stack in reverse, so the first child comes off first, and a member's name before its value.
    for (let index = children.length - 1; index >= 0; index -= 1) {
      const child = children[index]!;
      pending.push(child);
      if ('name' in child) pending.push({ value: child.name, path: child.path, depth: child.depth });
    }
  }
  return undefined;
}

/** Path of the first string (member name or value) of a parsed JSON value that cannot be stored as text. */
export function firstUnstorableText(value: unknown): string | undefined {
  const found = firstTextIntegrityProblem(value);
  return found?.kind === 'unstorable_text' ? found.propertyPath : undefined;
}

export const UNSTORABLE_TEXT_MESSAGE = 'This value contains a NUL character or an unpaired surrogate; text must be valid Unicode without NUL.';

/** 400 naming the field that holds such text. */
export function unstorableTextError(propertyPath: string): DomainError {
  return invalidInput('request.invalid_text', `${propertyPath || 'The body'}: ${UNSTORABLE_TEXT_MESSAGE}`, [
    { propertyPath, code: 'validation.invalid_text', message: UNSTORABLE_TEXT_MESSAGE },
  ]);
}

/** 400 for a body nested deeper than MAX_JSON_DEPTH. */
export function nestingTooDeepError(): DomainError {
  return invalidInput('request.nesting_too_deep', `The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep.`, [
    { propertyPath: '', code: 'request.nesting_too_deep', message: `At most ${MAX_JSON_DEPTH} levels of nested arrays and objects.` },
  ]);
}
