import type { Request, Response } from 'express';
import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type { Logger } from '@rental/logger';

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
  contentType?: string;
  headers?: Record<string, HeaderSpec>;
}

export interface BodySpec {
  schema: z.ZodType;
  contentType?: 'application/json' | 'multipart/form-data';
  required?: boolean;
  /**
   * false when the handler validates the body itself, because its rules give other statuses
   * than a plain 422 (for example a 400 for one field).
   */
  validate?: boolean;
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
type BodyOf<S extends OperationSpec> = S['body'] extends BodySpec
  ? S['body']['validate'] extends false ? unknown : Infer<S['body']['schema'], unknown>
  : undefined;

export interface RequestContext<S extends OperationSpec> {
  params: Infer<S['params'], Record<string, string>>;
  query: Infer<S['query'], Record<string, unknown>>;
  body: BodyOf<S>;
  partner: PartnerContext;
  requestId: string;
  log: Logger;
  req: Request;
  res: Response;
}

export interface JsonReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  contentType?: string;
}

export interface StreamReply {
  status: number;
  stream: Readable;
  headers: Record<string, string>;
}

export type Reply = JsonReply | StreamReply;

export type OperationHandler<S extends OperationSpec> = (context: RequestContext<S>) => Promise<Reply>;
