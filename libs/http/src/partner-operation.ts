import { z } from 'zod';
import { type HttpMethod, type OperationSpec, type ResponseSpec, defineOperation } from './operation';
import { pageQuery } from './paging';
import { problemResponses } from './problem-schemas';

/** What a partner operation states itself: its successes, and the problems its own rules add. */
type PartnerSpec = Omit<OperationSpec, 'responses'> & {
  returns: Record<number, ResponseSpec>;
  /** Problems of the operation's own rules (403, 409, …), beyond those its inputs bring. */
  problems?: number[];
};

/** What the operations on one kind of resource share. */
interface Family {
  tags: string[];
  /** The path parameters that name the resource, for the operations that do not name their own. */
  params?: z.ZodObject;
  /** Problems of the resource's scope, for instance 403 where another partner's resource is refused rather than hidden. */
  problems?: number[];
  /**
   * The resource as the descriptions name it ("cart", "quote request"): a read answers "The
   * <noun>" unless it names another answer, a create's Location is "Path of the <noun>", and
   * where the family does not refuse another partner's resource (403) a read says it is hidden.
   */
  noun?: string;
}

type CommandSpec = Omit<PartnerSpec, 'method'>;
type ReadSpec = Omit<PartnerSpec, 'method' | 'returns'> & { params: z.ZodObject; returns: ResponseSpec };
/** A read of a family with a noun may leave the description of its answer to the noun. */
type NamedReadSpec = Omit<ReadSpec, 'returns'> & { returns: Omit<ResponseSpec, 'description'> & { description?: string } };
type CreateSpec = Omit<PartnerSpec, 'method' | 'returns'> & { returns: { description: string; schema: z.ZodType } };
type ListSpec = Omit<PartnerSpec, 'method' | 'returns' | 'query'> & { items: { description: string; schema: z.ZodType } };

/** A spec of the family: what the family states may be left out, and a spec's own value wins. */
type OfFamily<Spec, F> = Omit<Spec, keyof F> & Partial<Spec>;
/** The operation a family builds: the family's and the spec's own facts, as the router and the description read them. */
type Built<F, S, Fixed> = Omit<F, keyof S | 'problems'> & Omit<S, 'returns' | 'problems' | 'items'> & Fixed & { responses: Record<number, ResponseSpec> };

/**
 * The problems every partner operation can answer because of its inputs alone: a missing or
 * invalid API key (401) and a dependency that is down (503) always; a path id that cannot exist
 * (the router answers 404), a malformed query (400), a body that is not well-formed (400) or
 * breaks its schema (422).
 */
function inputProblems(spec: Omit<OperationSpec, 'responses'>): number[] {
  return [401, 503, ...(spec.params ? [404] : []), ...(spec.query ? [400] : []), ...(spec.body ? [400, 422] : [])];
}

/**
 * The operation with the problems its inputs bring and the ones it names. A success that shares
 * a status with a problem (a 500 with its own description) replaces it.
 */
function build(spec: PartnerSpec): OperationSpec {
  const { returns, problems = [], ...operation } = spec;
  return defineOperation({
    ...operation,
    responses: { ...problemResponses(...new Set([...inputProblems(operation), ...problems])), ...returns },
  });
}

function joined(family: Family, spec: { problems?: number[] }) {
  return { ...family, ...spec, problems: [...(family.problems ?? []), ...(spec.problems ?? [])] };
}

/** A read's description, closed where the family hides another partner's resource by saying so. */
function readDescription(family: Family, description: string | undefined): string | undefined {
  if (!family.noun || family.problems?.includes(403)) return description;
  return [description, `Another partner's ${family.noun} answers 404.`].filter(Boolean).join(' ');
}

function command<const F extends Family, const M extends HttpMethod>(family: F, method: M) {
  return <const S extends OfFamily<CommandSpec, F>>(spec: S) =>
    build({ ...joined(family, spec), method } as PartnerSpec) as unknown as Built<F, S, { method: M }>;
}

/**
 * The partner operations on one kind of resource, which state the tag, the path parameters and
 * the problems of its scope once; each operation states what is its own.
 */
export function operationsOn<const F extends Family>(family: F) {
  return {
    /** GET of one resource named by its path: 200 with `returns` ("The <noun>" where the family has a noun and `returns` names no description). */
    read: <const S extends OfFamily<F extends { noun: string } ? NamedReadSpec : ReadSpec, F>>(spec: S) => {
      const { returns, description, ...operation } = joined(family, spec) as NamedReadSpec;
      return build({
        ...operation,
        method: 'get',
        description: readDescription(family, description),
        returns: { 200: { description: `The ${family.noun}`, ...returns } },
      }) as unknown as Built<F, S, { method: 'get' }>;
    },
    /** POST to the collection that makes a resource of a family with a noun, which the path does not name yet: 201 with `returns` and its Location. */
    create: <const S extends Omit<OfFamily<CreateSpec, F>, 'params'>>(spec: S) => {
      // Its Location is described by the noun: a family without one has no words for it.
      if (!family.noun) throw new Error(`${spec.operationId}: create needs a family that names its resource (noun)`);
      const { params: _resourceParams, ...collection } = family;
      const { returns, ...operation } = joined(collection, spec) as CreateSpec;
      const headers = { Location: { description: `Path of the ${family.noun}`, schema: z.string() } };
      return build({ ...operation, method: 'post', returns: { 201: { ...returns, headers } } }) as unknown as Built<Omit<F, 'params'>, S, { method: 'post' }>;
    },
    /** GET of one page of a collection (`page`, PAGE_SIZE items): 200 with an array of `items`. */
    list: <const S extends OfFamily<ListSpec, F>>(spec: S) => {
      const { items, ...operation } = joined(family, spec) as ListSpec;
      return build({
        ...operation,
        method: 'get',
        query: pageQuery,
        returns: { 200: { description: items.description, schema: z.array(items.schema) } },
      }) as unknown as Built<F, S, { method: 'get'; query: typeof pageQuery }>;
    },
    post: command(family, 'post'),
    put: command(family, 'put'),
    patch: command(family, 'patch'),
    delete: command(family, 'delete'),
  };
}
