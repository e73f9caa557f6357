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

/** Every `$defs` id a schema refers to, however deep. */
function referencedIds(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((item) => referencedIds(item, found));
  else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      const match = key === '$ref' && typeof inner === 'string' ? /^#\/\$defs\/(.+)$/.exec(inner) : null;
      if (match?.[1]) found.add(match[1]);
      else referencedIds(inner, found);
    }
  }
  return found;
}

function hasDefaultedProperty(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasDefaultedProperty);
  if (value === null || typeof value !== 'object') return false;
  const properties = (value as JsonSchema).properties;
  if (
    properties &&
    typeof properties === 'object' &&
    Object.values(properties).some((property) => property !== null && typeof property === 'object' && 'default' in property)
  )
    return true;
  return Object.values(value).some(hasDefaultedProperty);
}

/**
 * The request forms that hold a field with a default, directly or through another such form.
 * Stock generators (openapi-typescript with its default `defaultNonNullable`) read a default
 * under `components/schemas` as "always present" and make the field mandatory to send; inlined
 * under the request body they keep it optional, as `required` says.
 */
function defaultedInputs(definitions: Record<string, JsonSchema>): Set<string> {
  const defaulted = new Set(Object.keys(definitions).filter((id) => hasDefaultedProperty(definitions[id])));
  for (let grown = true; grown;) {
    grown = false;
    for (const [id, definition] of Object.entries(definitions)) {
      if (!defaulted.has(id) && [...referencedIds(definition)].some((ref) => defaulted.has(ref))) {
        defaulted.add(id);
        grown = true;
      }
    }
  }
  return defaulted;
}

/**
 * Turns zod schemas into OpenAPI 3.1 schemas. Schemas named with `.meta({ id })` become shared
 * components; a component whose request (input) form differs from its response (output) form
 * is stored twice, the request form suffixed `Input`. A request form with a defaulted field is
 * inlined (titled with its id) instead, see `defaultedInputs`.
 */
class SchemaCollector {
  readonly components: Record<string, JsonSchema> = {};

  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const generated = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
    const { $schema: _schema, $defs: definitions = {}, ...root } = generated;
    const all = definitions as Record<string, JsonSchema>;
    const inlined = io === 'input' ? defaultedInputs(all) : new Set<string>();
    const renames = new Map<string, string>();
    for (const [id, definition] of Object.entries(all)) {
      if (!inlined.has(id)) renames.set(id, this.register(id, definition, io));
    }
    const inline = new Map([...inlined].map((id) => [id, all[id] as JsonSchema]));
    for (const name of renames.values()) this.components[name] = this.rewriteRefs(this.components[name], renames, inline) as JsonSchema;
    return this.rewriteRefs(root, renames, inline) as JsonSchema;
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

  private rewriteRefs(value: unknown, renames: Map<string, string>, inline: Map<string, JsonSchema>, inlining: string[] = []): unknown {
    if (Array.isArray(value)) return value.map((item) => this.rewriteRefs(item, renames, inline, inlining));
    if (value === null || typeof value !== 'object') return value;
    const { $ref: ref, ...siblings } = value as JsonSchema;
    const match = typeof ref === 'string' ? /^#\/(?:\$defs|components\/schemas)\/(.+)$/.exec(ref) : null;
    const id = match?.[1];
    if (id && ref === `#/$defs/${id}` && inline.has(id)) {
      if (inlining.includes(id)) throw new Error(`The request schema ${id} refers to itself and has a defaulted field; it cannot be inlined`);
      return {
        title: id,
        ...(this.rewriteRefs(inline.get(id), renames, inline, [...inlining, id]) as JsonSchema),
        ...(this.rewriteRefs(siblings, renames, inline, inlining) as JsonSchema),
      };
    }
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => {
        if (key === '$ref' && id) return [key, `#/components/schemas/${renames.get(id) ?? id}`];
        return [key, this.rewriteRefs(inner, renames, inline, inlining)];
      }),
    );
  }
}

function objectShape(schema: z.ZodObject | undefined): [string, z.ZodType][] {
  return schema ? (Object.entries(schema.shape) as [string, z.ZodType][]) : [];
}

function isOptional(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success;
}

/**
 * Path parameters are described by the value the operation reads from the segment (an integer
 * id as an integer): on the wire every segment is text, and OpenAPI's `simple` style writes a
 * number as its digits, so a typed client passes an id from a body to a path as it is.
 */
function parameters(spec: OperationSpec, schemas: SchemaCollector): unknown[] {
  const path = objectShape(spec.params).map(([name, schema]) => ({
    name,
    in: 'path',
    required: true,
    description: schema.description,
    schema: schemas.convert(schema, 'output'),
  }));
  const query = objectShape(spec.query).map(([name, schema]) => ({
    name,
    in: 'query',
    required: !isOptional(schema),
    description: schema.description,
    schema: schemas.convert(schema, 'input'),
  }));
  const headers = Object.entries(spec.headers ?? {}).map(([name, header]) => ({
    name,
    in: 'header',
    required: header.required ?? false,
    description: header.description,
    schema: schemas.convert(header.schema, 'input'),
  }));
  return [...path, ...query, ...headers];
}

function response(spec: ResponseSpec, schemas: SchemaCollector): Record<string, unknown> {
  const result: Record<string, unknown> = { description: spec.description };
  if (spec.headers) {
    result.headers = Object.fromEntries(
      Object.entries(spec.headers).map(([name, header]) => [
        name,
        {
          description: header.description,
          required: header.required ?? false,
          schema: schemas.convert(header.schema, 'output'),
        },
      ]),
    );
  }
  if (spec.schema || spec.contentType) {
    const types = typeof spec.contentType === 'string' ? [spec.contentType] : (spec.contentType ?? ['application/json']);
    result.content = Object.fromEntries(
      types.map((type) => [
        type,
        {
          schema: spec.schema ? schemas.convert(spec.schema, 'output') : { type: 'string', contentMediaType: type, format: 'binary' },
        },
      ]),
    );
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
  result.responses = Object.fromEntries(
    Object.entries(withGatewayResponses(spec, isPublic, gateway)).map(([status, responseSpec]) => [status, response(responseSpec, schemas)]),
  );
  if (isPublic) result.security = [];
  return result;
}

/** Every tag an operation uses, in first-use order, with the description given for it. */
function declaredTags(options: ApiDocumentOptions): { name: string; description?: string }[] {
  const names = [...new Set(options.operations.flatMap((operation) => operation.tags))];
  return names.map((name) => ({
    name,
    ...(options.tags?.find((tag) => tag.name === name)?.description ? { description: options.tags?.find((tag) => tag.name === name)?.description } : {}),
  }));
}

const API_KEY_SECURITY = {
  name: 'apiKey',
  scheme: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: 'API key of the partner, per environment (sandbox or production).' },
};

/** The path templates of a set of operations, once each, in the order a description lists them. */
export function pathTemplatesOf(operations: readonly Pick<OperationSpec, 'path'>[]): string[] {
  return [...new Set(operations.map((operation) => operation.path))].sort((a, b) => a.localeCompare(b));
}

/** The OpenAPI 3.1 description of a set of operations and webhooks. */
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
  const webhooks = Object.fromEntries(
    Object.entries(options.webhooks ?? {}).map(([name, hook]) => [
      name,
      {
        post: {
          summary: hook.summary,
          description: hook.description,
          operationId: `webhook_${name.replace(/[^A-Za-z0-9]/g, '_')}`,
          parameters: Object.entries(hook.headers).map(([header, spec]) => ({
            name: header,
            in: 'header',
            required: spec.required ?? false,
            description: spec.description,
            schema: schemas.convert(spec.schema, 'output'),
          })),
          requestBody: { required: true, content: { 'application/json': { schema: schemas.convert(hook.body, 'output') } } },
          responses: hook.responses,
          security: [],
        },
      },
    ]),
  );
  return {
    openapi: '3.1.0',
    info: { title: options.title, version: options.version, description: options.description, ...(options.contact ? { contact: options.contact } : {}) },
    servers: [{ url: '/' }],
    security: [{ [security.name]: [] }],
    tags: declaredTags(options),
    paths: Object.fromEntries(pathTemplatesOf(options.operations).map((path) => [path, paths[path]])),
    webhooks,
    components: {
      securitySchemes: { [security.name]: security.scheme },
      schemas: Object.fromEntries(Object.entries(schemas.components).sort(([a], [b]) => a.localeCompare(b))),
    },
  };
}
