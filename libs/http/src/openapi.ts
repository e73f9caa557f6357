import { z } from 'zod';
import type { HeaderSpec, OperationSpec, ResponseSpec } from './operation';

type JsonSchema = Record<string, unknown>;

export interface WebhookSpec {
  summary: string;
  description: string;
  body: z.ZodType;
  headers: Record<string, HeaderSpec>;
  /** What the receiver answers; any 2xx counts as delivered. */
  responses: Record<string, { description: string }>;
}

export interface ApiDocumentOptions {
  title: string;
  version: string;
  description: string;
  contact?: { name: string; email?: string; url?: string };
  operations: OperationSpec[];
  webhooks?: Record<string, WebhookSpec>;
  tags?: { name: string; description: string }[];
  /** Operations callable without an API key. */
  publicOperationIds?: string[];
  /** How callers authenticate (default: the partner's X-Api-Key). */
  securityScheme?: { name: string; scheme: Record<string, unknown> };
  /**
   * Answers the gateway gives by itself, before or instead of the service: `keyed` on every
   * operation that needs a key, `withBody` on every POST, PUT and PATCH (a body can come even
   * where none is described). An operation that describes the same status keeps its own.
   */
  gatewayResponses?: { keyed?: Record<number, ResponseSpec>; withBody?: Record<number, ResponseSpec> };
}

/**
 * Turns zod schemas into OpenAPI 3.1 schemas. Schemas named with `.meta({ id })` become shared
 * components; a component whose request (input) form differs from its response (output) form
 * is stored twice, the request form suffixed `Input`.
 */
class SchemaCollector {
  readonly components: Record<string, JsonSchema> = {};

  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const generated = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
    const { $schema: _schema, $defs: definitions = {}, ...root } = generated;
    const renames = new Map<string, string>();
    for (const [id, definition] of Object.entries(definitions as Record<string, JsonSchema>)) {
      renames.set(id, this.register(id, definition, io));
    }
    for (const name of renames.values()) this.components[name] = this.rewriteRefs(this.components[name], renames) as JsonSchema;
    return this.rewriteRefs(root, renames) as JsonSchema;
  }

  private register(id: string, definition: JsonSchema, io: 'input' | 'output'): string {
    const existing = this.components[id];
    if (!existing || JSON.stringify(existing) === JSON.stringify(definition)) {
      this.components[id] = definition;
      return id;
    }
    const name = io === 'input' ? `${id}Input` : `${id}Output`;
    this.components[name] = definition;
    return name;
  }

  private rewriteRefs(value: unknown, renames: Map<string, string>): unknown {
    if (Array.isArray(value)) return value.map((item) => this.rewriteRefs(item, renames));
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => {
      if (key === '$ref' && typeof inner === 'string') {
        const match = /^#\/(?:\$defs|components\/schemas)\/(.+)$/.exec(inner);
        if (match?.[1]) return [key, `#/components/schemas/${renames.get(match[1]) ?? match[1]}`];
      }
      return [key, this.rewriteRefs(inner, renames)];
    }));
  }
}

function objectShape(schema: z.ZodObject | undefined): [string, z.ZodType][] {
  return schema ? (Object.entries(schema.shape) as [string, z.ZodType][]) : [];
}

function isOptional(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success;
}

function parameters(spec: OperationSpec, schemas: SchemaCollector): unknown[] {
  const path = objectShape(spec.params).map(([name, schema]) => ({
    name, in: 'path', required: true, description: schema.description, schema: schemas.convert(schema, 'input'),
  }));
  const query = objectShape(spec.query).map(([name, schema]) => ({
    name, in: 'query', required: !isOptional(schema), description: schema.description, schema: schemas.convert(schema, 'input'),
  }));
  const headers = Object.entries(spec.headers ?? {}).map(([name, header]) => ({
    name, in: 'header', required: header.required ?? false, description: header.description, schema: schemas.convert(header.schema, 'input'),
  }));
  return [...path, ...query, ...headers];
}

function response(spec: ResponseSpec, schemas: SchemaCollector): Record<string, unknown> {
  const result: Record<string, unknown> = { description: spec.description };
  if (spec.headers) {
    result.headers = Object.fromEntries(Object.entries(spec.headers).map(([name, header]) => [name, {
      description: header.description,
      required: header.required ?? false,
      schema: schemas.convert(header.schema, 'output'),
    }]));
  }
  if (spec.schema || spec.contentType) {
    const schema = spec.schema ? schemas.convert(spec.schema, 'output') : { type: 'string', contentMediaType: spec.contentType, format: 'binary' };
    result.content = { [spec.contentType ?? 'application/json']: { schema } };
  }
  return result;
}

function withGatewayResponses(spec: OperationSpec, isPublic: boolean, gateway: ApiDocumentOptions['gatewayResponses'] = {}): Record<number, ResponseSpec> {
  return {
    ...(isPublic ? {} : gateway.keyed),
    ...(spec.body || ['post', 'put', 'patch'].includes(spec.method) ? gateway.withBody : {}),
    ...spec.responses,
  };
}

function operation(spec: OperationSpec, schemas: SchemaCollector, isPublic: boolean, gateway: ApiDocumentOptions['gatewayResponses']): Record<string, unknown> {
  const result: Record<string, unknown> = {
    operationId: spec.operationId,
    summary: spec.summary,
    tags: spec.tags,
  };
  if (spec.description) result.description = spec.description;
  if (spec.deprecated) result.deprecated = true;
  const params = parameters(spec, schemas);
  if (params.length) result.parameters = params;
  if (spec.body) {
    const contentType = spec.body.contentType ?? 'application/json';
    result.requestBody = {
      required: spec.body.required ?? true,
      content: { [contentType]: { schema: schemas.convert(spec.body.schema, 'input') } },
    };
  }
  result.responses = Object.fromEntries(Object.entries(withGatewayResponses(spec, isPublic, gateway)).map(([status, responseSpec]) => [status, response(responseSpec, schemas)]));
  if (isPublic) result.security = [];
  return result;
}

/** Every tag an operation uses, in first-use order, with the description given for it. */
function declaredTags(options: ApiDocumentOptions): { name: string; description?: string }[] {
  const names = [...new Set(options.operations.flatMap((operation) => operation.tags))];
  return names.map((name) => ({ name, ...(options.tags?.find((tag) => tag.name === name)?.description ? { description: options.tags?.find((tag) => tag.name === name)?.description } : {}) }));
}

/** The OpenAPI 3.1 description of a set of operations and webhooks. */
const API_KEY_SECURITY = { name: 'apiKey', scheme: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: 'API key of the partner, per environment (sandbox or production).' } };

export function buildOpenApiDocument(options: ApiDocumentOptions): Record<string, unknown> {
  const schemas = new SchemaCollector();
  const security = options.securityScheme ?? API_KEY_SECURITY;
  const paths: Record<string, Record<string, unknown>> = {};
  const publicIds = new Set(options.publicOperationIds ?? []);
  for (const spec of options.operations) {
    const item = paths[spec.path] ?? {};
    item[spec.method] = operation(spec, schemas, publicIds.has(spec.operationId), options.gatewayResponses);
    paths[spec.path] = item;
  }
  const webhooks = Object.fromEntries(Object.entries(options.webhooks ?? {}).map(([name, hook]) => [name, {
    post: {
      summary: hook.summary,
      description: hook.description,
      operationId: `webhook_${name.replace(/[^A-Za-z0-9]/g, '_')}`,
      parameters: Object.entries(hook.headers).map(([header, spec]) => ({
        name: header, in: 'header', required: spec.required ?? false, description: spec.description, schema: schemas.convert(spec.schema, 'output'),
      })),
      requestBody: { required: true, content: { 'application/json': { schema: schemas.convert(hook.body, 'output') } } },
      responses: hook.responses,
      security: [],
    },
  }]));
  return {
    openapi: '3.1.0',
    info: { title: options.title, version: options.version, description: options.description, ...(options.contact ? { contact: options.contact } : {}) },
    servers: [{ url: '/' }],
    security: [{ [security.name]: [] }],
    tags: declaredTags(options),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    webhooks,
    components: {
      securitySchemes: { [security.name]: security.scheme },
      schemas: Object.fromEntries(Object.entries(schemas.components).sort(([a], [b]) => a.localeCompare(b))),
    },
  };
}
