import { z } from 'zod';
import { type OperationSpec, type ResponseSpec, defineOperation } from './operation';
import { pageQuery } from './paging';
import { problemResponses } from './problem-schemas';

/** What a partner operation states itself: its successes, and the problems its own rules add. */
type PartnerSpec = Omit<OperationSpec, 'responses'> & {
  returns: Record<number, ResponseSpec>;
  /** Problems of the operation's own rules (403, 409, …), beyond those its inputs bring. */
  problems?: number[];
};

type Built<S, Fixed> = Omit<S, 'returns' | 'problems' | 'items' | keyof Fixed> & Fixed & { responses: Record<number, ResponseSpec> };

/**
 * The problems every partner operation can answer because of its inputs alone: a missing or
 * invalid API key (401) and a dependency that is down (503) always; a path id that cannot exist
 * (the router answers 404), a malformed query (400), a body that is not well-formed (400) or
 * breaks its schema (422).
 */
function inputProblems(spec: Omit<OperationSpec, 'responses'>): number[] {
  return [
    401, 503,
    ...(spec.params ? [404] : []),
    ...(spec.query ? [400] : []),
    ...(spec.body ? [400, 422] : []),
  ];
}

function build(spec: PartnerSpec): OperationSpec {
  const { returns, problems = [], ...operation } = spec;
  return defineOperation({
    ...operation,
    responses: { ...problemResponses(...new Set([...inputProblems(operation), ...problems])), ...returns },
  });
}

/**
 * A partner operation whose problems follow from its inputs (see inputProblems) plus the ones
 * it names. A success that shares a status with a problem (a 500 with its own description)
 * replaces it.
 */
export function partnerOperation<const S extends PartnerSpec>(spec: S): Built<S, object> {
  return build(spec) as Built<S, object>;
}

/** GET of one resource named by its path: 200 with `returns`. */
export function readOperation<const S extends Omit<PartnerSpec, 'method' | 'returns'> & { params: z.ZodObject; returns: ResponseSpec }>(
  spec: S,
): Built<S, { method: 'get' }> {
  const { returns, ...operation } = spec;
  return build({ ...operation, method: 'get', returns: { 200: returns } }) as Built<S, { method: 'get' }>;
}

/** GET of one page of a collection (`page`, PAGE_SIZE items): 200 with an array of `items`. */
export function listOperation<const S extends Omit<PartnerSpec, 'method' | 'returns' | 'query'> & { items: { description: string; schema: z.ZodType } }>(
  spec: S,
): Built<S, { method: 'get'; query: typeof pageQuery }> {
  const { items, ...operation } = spec;
  return build({
    ...operation,
    method: 'get',
    query: pageQuery,
    returns: { 200: { description: items.description, schema: z.array(items.schema) } },
  }) as Built<S, { method: 'get'; query: typeof pageQuery }>;
}

/** What the operations on one kind of resource share. */
interface Family {
  tags: string[];
  /** The path parameters that name the resource, for the operations that do not name their own. */
  params?: z.ZodObject;
  /** Problems of the resource's scope, for instance 403 where another partner's resource is refused rather than hidden. */
  problems?: number[];
}

type ReadSpec = Omit<PartnerSpec, 'method' | 'returns'> & { params: z.ZodObject; returns: ResponseSpec };
type ListSpec = Omit<PartnerSpec, 'method' | 'returns' | 'query'> & { items: { description: string; schema: z.ZodType } };
/** A spec of the family: what the family states may be left out, and a spec's own value wins. */
type OfFamily<Spec, F> = Omit<Spec, keyof F> & Partial<Spec>;
type Joined<F, S> = Omit<F, keyof S | 'problems'> & S;

function joined<S extends { problems?: number[] }>(family: Family, spec: S) {
  return { ...family, ...spec, problems: [...(family.problems ?? []), ...(spec.problems ?? [])] };
}

/**
 * The operations on one kind of resource, which state the tag, the path parameters and the
 * problems of its scope once; each operation states what is its own.
 */
export function operationsOn<const F extends Family>(family: F) {
  return {
    operation: <const S extends OfFamily<PartnerSpec, F>>(spec: S) => build(joined(family, spec) as PartnerSpec) as Built<Joined<F, S>, object>,
    read: <const S extends OfFamily<ReadSpec, F>>(spec: S) => readOperation(joined(family, spec) as ReadSpec) as unknown as Built<Joined<F, S>, { method: 'get' }>,
    list: <const S extends OfFamily<ListSpec, F>>(spec: S) => listOperation(joined(family, spec) as ListSpec) as unknown as Built<Joined<F, S>, { method: 'get'; query: typeof pageQuery }>,
  };
}
