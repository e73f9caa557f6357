import type { z } from 'zod';
import { type OperationSpec, type ResponseSpec, defineOperation } from './operation';
import { problemResponses } from './problem-schemas';

/** What every operation of one API states once: its tag, the path parameters that name its credential, the problems any of them can answer. */
export interface OperationFamily {
  tags: readonly string[];
  params: z.ZodObject;
  problems: readonly number[];
}

type FamilySpec = Omit<OperationSpec, 'tags' | 'params' | 'responses'> & {
  /** Only where the path names more than the family's parameters. */
  params?: z.ZodObject;
  returns: Record<number, ResponseSpec>;
  /** Problems of the operation's own rules, beyond those of the family. */
  problems?: number[];
};

type FamilyOperation<F extends OperationFamily, S extends FamilySpec> = Omit<S, 'returns' | 'problems' | 'params'> & {
  params: S['params'] extends z.ZodObject ? S['params'] : F['params'];
  tags: string[];
  responses: Record<number, ResponseSpec>;
};

/**
 * The builder of one API's operations (the customer's, say, named by its link token): each
 * operation states its successes and its own problems, and answers the family's problems too.
 */
export function operationFamily<const F extends OperationFamily>(family: F) {
  return <const S extends FamilySpec>(spec: S): FamilyOperation<F, S> => {
    const { returns, problems = [], ...operation } = spec;
    return defineOperation({
      params: family.params,
      ...operation,
      tags: [...family.tags],
      responses: { ...returns, ...problemResponses(...family.problems, ...problems) },
    }) as unknown as FamilyOperation<F, S>;
  };
}
