import type { Request, Response } from 'express';
import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type { Logger } from '@rental/logger';
import type { DomainError } from '@rental/problem';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface HeaderSpec {
  description: string;
  schema: z.ZodType;
  required?: boolean;
}

export interface ResponseSpec {
  description: string;
  /** Absent for responses without a body (204) or with a binary body described by contentType. */
  schema?: z.ZodType;
  /** A binary body may come in one of several types (a file as stored): each is described. */
  contentType?: string | readonly string[];
  headers?: Record<string, HeaderSpec>;
}

export interface BodySpec {
  schema: z.ZodType;
  contentType?: 'application/json' | 'multipart/form-data';
  required?: boolean;
  /**
   * What a JSON body that breaks the schema answers, when the specification gives it another
   * answer than the plain 422 with zod's violations (a 400 for some field, other codes); the
   * router still parses the body once, before the handler.
   */
  reject?: (error: z.ZodError, input: unknown) => DomainError;
}

/**
 * One public operation: the route, its request and response schemas. The router validates
 * requests with these schemas, and the API description is generated from the same objects.
 */
export interface OperationSpec {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI form: /api/carts/{id} */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  deprecated?: boolean;
  params?: z.ZodObject;
  query?: z.ZodObject;
  headers?: Record<string, HeaderSpec>;
  body?: BodySpec;
  responses: Record<number, ResponseSpec>;
}

export function defineOperation<const S extends OperationSpec>(spec: S): S {
  return spec;
}

/** The partner the gateway signed; the environment is the deployment's (API_ENVIRONMENT), never the request's. */
export interface PartnerContext {
  id: string;
  roles: string[];
}

type Infer<T, Fallback> = T extends z.ZodType ? z.infer<T> : Fallback;
/** A multipart body is streamed by the handler itself (the upload limit applies while it is read). */
type BodyOf<S extends OperationSpec> = S['body'] extends BodySpec
  ? S['body']['contentType'] extends 'multipart/form-data'
    ? unknown
    : Infer<S['body']['schema'], unknown>
  : undefined;

/** Everything of a request but its body: what the checks that come before the body see. */
export interface RequestScope<S extends OperationSpec> {
  params: Infer<S['params'], Record<string, string>>;
  query: Infer<S['query'], Record<string, unknown>>;
  partner: PartnerContext;
  requestId: string;
  log: Logger;
  req: Request;
  res: Response;
}

export interface RequestContext<S extends OperationSpec> extends RequestScope<S> {
  body: BodyOf<S>;
}

export interface JsonReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  contentType?: string;
}

/** A JSON body encoded already (built by the database, say), sent as it is. */
export interface EncodedJsonReply {
  status: number;
  json: string;
  headers?: Record<string, string>;
}

export interface StreamReply {
  status: number;
  stream: Readable;
  headers: Record<string, string>;
}

export type Reply = JsonReply | EncodedJsonReply | StreamReply;

export type OperationHandler<S extends OperationSpec> = (context: RequestContext<S>) => Promise<Reply>;

/**
 * An operation whose documented order of checks puts something before the body (the resource's
 * scope, the caller's role): `before` runs once params and query are parsed, then the router
 * parses the body, then `handle` gets both the body and what `before` returned.
 */
export interface GuardedOperationHandler<S extends OperationSpec, G> {
  before: (scope: RequestScope<S>) => Promise<G>;
  handle: (context: RequestContext<S> & { guarded: G }) => Promise<Reply>;
}
