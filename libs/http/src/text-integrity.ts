import type { NextFunction, Request, Response } from 'express';
import { DomainError, firstTextIntegrityProblem, invalidInput, nestingTooDeepError, unstorableTextError } from '@rental/problem';

/** 400 naming the field, before any handler could hand such a string to the database or walk such a tree. */
export function rejectUnstorableText(req: Request, _res: Response, next: NextFunction): void {
  const found = firstTextIntegrityProblem(req.body);
  if (found === undefined) {
    next();
    return;
  }
  next(found.kind === 'unstorable_text' ? unstorableTextError(found.propertyPath) : nestingTooDeepError());
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
