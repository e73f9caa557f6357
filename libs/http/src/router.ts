import type { Application, Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { DomainError, toProblem, validationFailed, zodViolations } from '@rental/problem';
import type { Logger } from '@rental/logger';
import { OperationHandler, OperationSpec, PartnerContext, Reply } from './operation';
import { sendProblem } from './problem-response';

interface Entry {
  spec: OperationSpec;
  handler: OperationHandler<OperationSpec>;
}

function expressPath(openApiPath: string): string {
  return openApiPath.replace(/\{(\w+)\}/g, ':$1');
}

function parseRequest(spec: OperationSpec, req: Request): { params: unknown; query: unknown; body: unknown } {
  let params: unknown = req.params;
  if (spec.params) {
    const parsed = spec.params.safeParse(req.params);
    // A path id that cannot exist is a resource that does not exist.
    if (!parsed.success) throw new DomainError('not_found', 'resource.not_found', 'No resource exists at this path.');
    params = parsed.data;
  }
  let query: unknown = req.query;
  if (spec.query) {
    const parsed = spec.query.safeParse(req.query);
    if (!parsed.success) {
      const violations = zodViolations(parsed.error, req.query);
      throw new DomainError('invalid_input', 'request.invalid_query', violations.map((v) => `${v.propertyPath}: ${v.message}`).join('\n'), { violations });
    }
    query = parsed.data;
  }
  let body: unknown = req.body;
  if (spec.body && spec.body.validate !== false && (spec.body.contentType ?? 'application/json') === 'application/json') {
    const input = req.body ?? {};
    const parsed = spec.body.schema.safeParse(input);
    if (!parsed.success) throw validationFailed(zodViolations(parsed.error, input));
    body = parsed.data;
  }
  return { params, query, body };
}

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
  if (reply.body === undefined) {
    res.end();
    return;
  }
  res.setHeader('Content-Type', `${reply.contentType ?? 'application/json'}; charset=utf-8`);
  res.send(JSON.stringify(reply.body));
}

/**
 * Public operations of a service. Each is registered with its zod schemas; a path known with
 * other methods answers 405 with Allow.
 */
export class OperationRouter {
  private readonly entries: Entry[] = [];

  handle<S extends OperationSpec>(spec: S, handler: OperationHandler<S>): this {
    this.entries.push({ spec, handler: handler as unknown as OperationHandler<OperationSpec> });
    return this;
  }

  get operations(): OperationSpec[] {
    return this.entries.map((entry) => entry.spec);
  }

  mount(app: Application): void {
    for (const { spec, handler } of this.entries) {
      app[spec.method](expressPath(spec.path), async (req: Request, res: Response) => {
        const { params, query, body } = parseRequest(spec, req);
        const reply = await handler({
          params: params as Record<string, string>,
          query: query as Record<string, unknown>,
          body: body as undefined,
          partner: res.locals.partner as PartnerContext,
          requestId: res.locals.requestId as string,
          log: res.locals.log as Logger,
          req,
          res,
        });
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
        sendProblem(res, toProblem(new DomainError('method_not_allowed', 'request.method_not_allowed', `${req.method} is not allowed here; allowed: ${allow}.`)), { Allow: allow });
      });
    }
  }
}
