import type { NextFunction, Request, Response } from 'express';
import { DomainError, invalidInput } from '@rental/problem';

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A NUL character cannot be stored in Postgres text; an unpaired surrogate is not Unicode at all. */
function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && !UNPAIRED_SURROGATE.test(text);
}

/** Path of the first string (member name or value) of a parsed JSON body that cannot be stored as text. */
export function firstUnstorableText(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : path;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = firstUnstorableText(item, `${path}[${index}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [name, member] of Object.entries(value)) {
      const memberPath = path ? `${path}.${name}` : name;
      if (!isStorableText(name)) return memberPath;
      const found = firstUnstorableText(member, memberPath);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** 400 naming the field, before any handler could hand such a string to the database. */
export function rejectUnstorableText(req: Request, _res: Response, next: NextFunction): void {
  const propertyPath = firstUnstorableText(req.body);
  if (propertyPath === undefined) {
    next();
    return;
  }
  next(unstorableTextError(propertyPath));
}

export function unstorableTextError(propertyPath: string): DomainError {
  const message = 'This value contains a NUL character or an unpaired surrogate; text must be valid Unicode without NUL.';
  return invalidInput('request.invalid_text', `${propertyPath || 'The body'}: ${message}`, [{ propertyPath, code: 'validation.invalid_text', message }]);
}

/** The decoder's error for a body whose bytes are not in the Content-Encoding it names (body-parser passes zlib's error on as a 400). */
export function malformedEncoding(error: unknown, req: Request): DomainError | undefined {
  const failure = error as { errno?: unknown; code?: unknown; status?: unknown } | null;
  const encoding = req.headers['content-encoding'];
  if (!encoding || failure?.status !== 400 || typeof failure.errno !== 'number' || typeof failure.code !== 'string') return undefined;
  return invalidInput('request.malformed_encoding', `The request body is not valid ${encoding} data, as its Content-Encoding header says it is.`, [
    { propertyPath: 'Content-Encoding', code: 'request.malformed_encoding', message: `The body could not be decoded as ${encoding}.` },
  ]);
}
