import type { Application, NextFunction, Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { DomainError, PROBLEM_CONTENT_TYPE, ProblemDocument, malformedQuery, toProblem, validationFailed, zodViolations } from '@rental/problem';
import type { Logger } from '@rental/logger';
import { GuardedOperationHandler, OperationHandler, OperationSpec, PartnerContext, Reply, RequestScope } from './operation';
import { problemOfResponse, sendProblem } from './problem-response';

interface Entry {
  spec: OperationSpec;
  handler: GuardedOperationHandler<OperationSpec, unknown>;
}

function expressPath(openApiPath: string): string {
  return openApiPath.replace(/\{(\w+)\}/g, ':$1');
}

function parsePathAndQuery(spec: OperationSpec, req: Request): { params: unknown; query: unknown } {
  let params: unknown = req.params;
  if (spec.params) {
    const parsed = spec.params.safeParse(req.params);
    // A path id that cannot exist is a resource that does not exist; the detail names the segment.
    if (!parsed.success) {
      const names = [...new Set(parsed.error.issues.map((issue) => String(issue.path[0])))];
      throw new DomainError('not_found', 'resource.not_found', `No resource exists at this path: ${names.join(', ')} cannot name one.`);
    }
    params = parsed.data;
  }
  let query: unknown = req.query;
  if (spec.query) {
    const parsed = spec.query.safeParse(req.query);
    if (!parsed.success) throw malformedQuery(zodViolations(parsed.error, req.query));
    query = parsed.data;
  }
  return { params, query };
}

/**
 * A JSON body checked as the operation checks it over HTTP (its schema, its own rejection): also
 * for the same operation reached another way (a gRPC call carrying the body as JSON).
 */
export function checkedBody(spec: OperationSpec, input: unknown): unknown {
  if (!spec.body) return input;
  const parsed = spec.body.schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  throw spec.body.reject ? spec.body.reject(parsed.error, input ?? {}) : validationFailed(zodViolations(parsed.error, input ?? {}));
}

/** The JSON body parsed by its schema; a multipart body is left to the handler, which streams it. */
function parseBody(spec: OperationSpec, req: Request): unknown {
  if (!spec.body || (spec.body.contentType ?? 'application/json') !== 'application/json') return req.body;
  return checkedBody(spec, req.body);
}

const unguarded = async () => undefined;

async function sendReply(res: Response, reply: Reply): Promise<void> {
  res.status(reply.status);
  for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
  if ('stream' in reply) {
    try {
      await pipeline(reply.stream, res);
    } catch {
      // The client went away or the source failed mid-stream; the status is already sent.
      res.destroy();
    }
    return;
  }
  if ('json' in reply) {
    endWithJson(res, reply.json, 'application/json');
    return;
  }
  if (reply.body === undefined) {
    res.end();
    return;
  }
  // A problem a handler answers as a body (one kept from earlier, say) names this request too.
  const json = JSON.stringify(reply.contentType === PROBLEM_CONTENT_TYPE ? problemOfResponse(reply.body as ProblemDocument, res) : reply.body);
  endWithJson(res, json, reply.contentType ?? 'application/json');
}

function endWithJson(res: Response, json: string, contentType: string): void {
  res.setHeader('Content-Type', `${contentType}; charset=utf-8`);
  res.setHeader('Content-Length', Buffer.byteLength(json));
  // Written directly rather than with express's send, which parses the Content-Type again and
  // checks validators these answers never carry (a measurable share of a small answer's CPU);
  // node itself leaves the body out of HEAD, 204 and 304 answers.
  res.end(json);
}

export interface OperationRouterOptions {
  /**
   * Whether the caller may call the operation, asked on the route that matched the request and
   * before its body is read; it throws a DomainError to refuse. Its answer for an operation it
   * does not know must be a refusal.
   */
  authorization?: (spec: OperationSpec, res: Response) => void;
}

/**
 * Public operations of a service. Each is registered with its zod schemas; a path known with
 * other methods answers 405 with Allow.
 */
export class OperationRouter {
  private readonly entries: Entry[] = [];

  constructor(private readonly options: OperationRouterOptions = {}) {}

  handle<S extends OperationSpec, G = undefined>(spec: S, handler: OperationHandler<S> | GuardedOperationHandler<S, G>): this {
    const guarded = typeof handler === 'function' ? { before: unguarded, handle: handler } : handler;
    this.entries.push({ spec, handler: guarded as unknown as GuardedOperationHandler<OperationSpec, unknown> });
    return this;
  }

  get operations(): OperationSpec[] {
    return this.entries.map((entry) => entry.spec);
  }

  /**
   * The authorization of each operation, on the same method and path as its handler (so on the
   * same route, spelled the same way), mounted before the body parsers.
   */
  mountAuthorization(app: Application): void {
    const { authorization } = this.options;
    if (!authorization) return;
    for (const { spec } of this.entries) {
      app[spec.method](expressPath(spec.path), (_req: Request, res: Response, next: NextFunction) => {
        authorization(spec, res);
        next();
      });
    }
  }

  mount(app: Application): void {
    for (const { spec, handler } of this.entries) {
      app[spec.method](expressPath(spec.path), async (req: Request, res: Response) => {
        const { params, query } = parsePathAndQuery(spec, req);
        const scope: RequestScope<OperationSpec> = {
          params: params as Record<string, string>,
          query: query as Record<string, unknown>,
          partner: res.locals.partner as PartnerContext,
          requestId: res.locals.requestId as string,
          log: res.locals.log as Logger,
          req,
          res,
        };
        const guarded = await handler.before(scope);
        const reply = await handler.handle({ ...scope, body: parseBody(spec, req) as undefined, guarded });
        await sendReply(res, reply);
      });
    }
    const methodsByPath = new Map<string, Set<string>>();
    for (const { spec } of this.entries) {
      const methods = methodsByPath.get(spec.path) ?? new Set<string>();
      methods.add(spec.method.toUpperCase());
      if (spec.method === 'get') methods.add('HEAD');
      methodsByPath.set(spec.path, methods);
    }
    for (const [path, methods] of methodsByPath) {
      const allow = [...methods].join(', ');
      app.all(expressPath(path), (req: Request, res: Response) => {
        sendProblem(
          res,
          toProblem(new DomainError('method_not_allowed', 'request.method_not_allowed', `${req.method} is not allowed here; allowed: ${allow}.`)),
          { Allow: allow },
        );
      });
    }
  }
}
