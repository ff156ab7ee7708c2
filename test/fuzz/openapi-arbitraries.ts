import fc from 'fast-check';
import type { RawRequest } from '../support/raw-http';

/** The parts of an OpenAPI 3.0 document the fuzz suite reads. */
export type Schema = Record<string, any>;
export interface OpenApiDoc {
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, Schema> };
}
interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Schema;
}
interface OperationObject {
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

/** One documented operation with its parameters by place (header names lower-cased). */
export interface Operation {
  /** e.g. `GET /api/v1/cards/{cardId}` */
  id: string;
  method: string;
  path: string;
  pathParams: ParameterObject[];
  queryParams: ParameterObject[];
  headerParams: ParameterObject[];
  body?: Schema;
  /** False where the document lets the body be left out. */
  bodyRequired: boolean;
  responses: OperationObject['responses'];
  /** Key paths of a body's strings that are free text: no pattern, format or enum constrains them. */
  freeTextIn(body: unknown): Array<Array<string | number>>;
}

/** The /api/v1 operations of the document. */
export function operationsOf(doc: OpenApiDoc): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.startsWith('/api/v1')) continue;
    for (const [method, op] of Object.entries(item)) {
      const id = `${method.toUpperCase()} ${path}`;
      const params = op.parameters ?? [];
      const headers = new Map<string, ParameterObject>();
      for (const p of params.filter((x) => x.in === 'header')) {
        const name = p.name.toLowerCase();
        headers.set(name, { ...p, name, required: p.required || headers.get(name)?.required });
      }
      operations.push({
        id,
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path'),
        queryParams: params.filter((p) => p.in === 'query'),
        headerParams: [...headers.values()],
        body: op.requestBody?.content['application/json']?.schema,
        bodyRequired: op.requestBody?.required !== false,
        responses: op.responses,
        freeTextIn: (body) => {
          const schema = op.requestBody?.content['application/json']?.schema;
          return schema ? freeTextPaths(doc, schema, body) : [];
        },
      });
    }
  }
  return operations;
}

/** No pattern, or one that only leaves characters out (`^[^\u0000-\u001f]*$`): any text without them fits. */
const onlyExcludes = (pattern: string | undefined) => !pattern || /^\^\[\^[^\]]*\]\*\$$/.test(pattern);

function freeTextPaths(
  doc: OpenApiDoc,
  input: Schema,
  value: unknown,
  path: Array<string | number> = [],
  out: Array<Array<string | number>> = [],
): Array<Array<string | number>> {
  const schema = deref(doc, input);
  if (!schema) return out;
  const alternatives: Schema[] | undefined = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (alternatives) {
    for (const alternative of alternatives) freeTextPaths(doc, alternative, value, path, out);
  } else if (typeof value === 'string') {
    const free = schema.type === 'string' && !schema.format && !schema.enum && onlyExcludes(schema.pattern);
    if (free && !out.some((p) => p.join('.') === path.join('.'))) out.push(path);
  } else if (Array.isArray(value) && schema.items) {
    value.forEach((item, i) => freeTextPaths(doc, schema.items, item, [...path, i], out));
  } else if (value && typeof value === 'object' && schema.properties) {
    for (const [key, item] of Object.entries(value))
      if (schema.properties[key]) freeTextPaths(doc, schema.properties[key], item, [...path, key], out);
  }
  return out;
}

/** Resolves a local `$ref` (`#/components/schemas/X`). */
export function deref(doc: OpenApiDoc, schema: Schema): Schema {
  let s = schema;
  while (s?.$ref) s = doc.components.schemas[String(s.$ref).replace('#/components/schemas/', '')];
  return s;
}

/**
 * Values for fields and parameters by name (e.g. real ids seeded before the run), or by name and
 * type (`amount:number`) where one name has several types: where a field has a hint, the generator
 * picks the hint most of the time, so that valid-shaped requests get past the lookups into deep code.
 */
export type Hints = Record<string, fc.Arbitrary<unknown>>;

const MAX_ITEMS = 4;

/** Values that match a schema: $ref, nullable, enum, oneOf/anyOf/allOf, patterns, formats, bounds. */
export function valueOf(doc: OpenApiDoc, input: Schema, hints: Hints = {}, depth = 0): fc.Arbitrary<unknown> {
  const schema = deref(doc, input);
  if (!schema || Object.keys(schema).length === 0) return fc.jsonValue({ maxDepth: 2 });
  const inner = (): fc.Arbitrary<unknown> => {
    if (schema.enum) return fc.constantFrom(...schema.enum);
    if (schema.const !== undefined) return fc.constant(schema.const);
    const alternatives = schema.oneOf ?? schema.anyOf;
    if (alternatives) return fc.oneof(...alternatives.map((s: Schema) => valueOf(doc, s, hints, depth + 1)));
    // One part: a reference wrapped to be nullable or described, whatever its shape (oneOf too).
    if (schema.allOf?.length === 1) return valueOf(doc, schema.allOf[0], hints, depth);
    if (schema.allOf) return valueOf(doc, mergeAllOf(doc, schema.allOf), hints, depth);
    switch (schema.type) {
      case 'string':
        return stringOf(schema);
      case 'integer':
        return fc.integer({ min: bound(schema.minimum, -1e6), max: bound(schema.maximum, 1e6) });
      case 'number':
        return fc.double({
          min: bound(schema.minimum, -1e6),
          max: bound(schema.maximum, 1e6),
          noNaN: true,
          noDefaultInfinity: true,
        });
      case 'boolean':
        return fc.boolean();
      case 'array':
        return fc.array(valueOf(doc, schema.items ?? {}, hints, depth + 1), {
          minLength: schema.minItems ?? 0,
          maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? MAX_ITEMS, MAX_ITEMS)),
        });
      default:
        return objectOf(doc, schema, hints, depth);
    }
  };
  const value = inner();
  return schema.nullable ? fc.oneof({ arbitrary: value, weight: 4 }, fc.constant(null)) : value;
}

function objectOf(doc: OpenApiDoc, schema: Schema, hints: Hints, depth: number): fc.Arbitrary<unknown> {
  const properties: Record<string, Schema> = schema.properties ?? {};
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) {
    const generated = depth > 6 ? fc.constant(null) : valueOf(doc, property, hints, depth + 1);
    const hint = hints[`${name}:${deref(doc, property)?.type}`] ?? hints[name];
    model[name] = hint
      ? fc.oneof({ arbitrary: hint, weight: 4 }, { arbitrary: generated, weight: 1 })
      : generated;
  }
  return fc.record(model, { requiredKeys: (schema.required ?? []).filter((k: string) => k in model) });
}

function mergeAllOf(doc: OpenApiDoc, parts: Schema[]): Schema {
  const merged: Schema = { type: 'object', properties: {}, required: [] };
  for (const part of parts.map((p) => deref(doc, p))) {
    Object.assign(merged.properties, part.properties ?? {});
    merged.required.push(...(part.required ?? []));
  }
  return merged;
}

const bound = (value: unknown, fallback: number) =>
  typeof value === 'number' && Number.isFinite(value) ? Math.max(-1e9, Math.min(1e9, value)) : fallback;

function stringOf(schema: Schema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? 80, 300);
  const fits = (s: string) => s.length >= min && s.length <= (schema.maxLength ?? Infinity);
  switch (
    schema.pattern && !['uuid', 'date-time', 'date'].includes(schema.format) ? undefined : schema.format
  ) {
    case 'uuid':
      return fc.uuid();
    case 'date-time':
      return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
    case 'date':
      return fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
    case 'email':
      return fc.emailAddress().filter(fits);
    case 'uri':
    case 'url':
      return fc.webUrl().filter(fits);
  }
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter(fits);
  return fc.string({ minLength: min, maxLength: Math.max(min, max), unit: 'grapheme' });
}

/** A request as its parts before they are put on the wire, so that mutations can work on each part. */
export interface RequestParts {
  method: string;
  path: string;
  pathValues: Record<string, string>;
  query: Array<[string, string]>;
  headers: Array<[string, string]>;
  /** A JSON value, or the exact bytes of the body. */
  body?: unknown;
  /** The request target as is, when a mutation writes it itself. */
  rawTarget?: string;
}

const asParam = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * Mostly the whole valid value, sometimes one drawn from the schema: an operation with rules across
 * fields must see a 2xx within the runs (the schema's values break those rules most of the time).
 * Without a whole value, the schema's.
 */
const orWhole = <T>(fromSchema: fc.Arbitrary<T>, whole: fc.Arbitrary<T> | undefined) =>
  whole ? fc.oneof({ arbitrary: whole, weight: 3 }, { arbitrary: fromSchema, weight: 1 }) : fromSchema;

/**
 * Valid-shaped requests of an operation: documented parameters and body (hints by name), the token.
 * `whole` gives whole bodies or queries for rules across fields the schema cannot say (three in four
 * of the bodies or queries then), e.g. two parameters that exclude each other.
 */
export function requestOf(
  doc: OpenApiDoc,
  op: Operation,
  token: string,
  hints: Hints,
  whole: { body?: fc.Arbitrary<unknown>; query?: fc.Arbitrary<Record<string, unknown>> } = {},
): fc.Arbitrary<RequestParts> {
  const param = (p: ParameterObject) =>
    hints[p.name]
      ? fc.oneof({ arbitrary: hints[p.name], weight: 6 }, valueOf(doc, p.schema))
      : valueOf(doc, p.schema);
  const record = (params: ParameterObject[]) =>
    fc.record(Object.fromEntries(params.map((p) => [p.name, param(p)])), {
      requiredKeys: params.filter((p) => p.required).map((p) => p.name),
    });
  return fc
    .record({
      path: record(op.pathParams),
      query: orWhole(record(op.queryParams), whole.query),
      headers: record(op.headerParams),
      body: op.body ? orWhole(valueOf(doc, op.body, hints), whole.body) : fc.constant(undefined),
    })
    .map(({ path, query, headers, body }) => ({
      method: op.method,
      path: op.path,
      pathValues: Object.fromEntries(Object.entries(path).map(([k, v]) => [k, asParam(v)])),
      query: Object.entries(query).map(([k, v]) => [k, asParam(v)] as [string, string]),
      headers: [
        ['x-auth-token', token] as [string, string],
        ...Object.entries(headers).map(([k, v]) => [k, utf8AsLatin1(asParam(v))] as [string, string]),
        ...(op.body ? [['content-type', 'application/json'] as [string, string]] : []),
      ],
      body,
    }));
}

/** A string whose UTF-8 bytes are written one char per byte (what `RawRequest` expects). */
export const utf8AsLatin1 = (s: string) => Buffer.from(s, 'utf8').toString('latin1');

/** Puts the parts on the wire: path values and query percent-encoded, the body as JSON. */
export function toRaw(parts: RequestParts): RawRequest {
  const path = parts.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(parts.pathValues[name] ?? ''),
  );
  const query = parts.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  const target = parts.rawTarget ?? (query ? `${path}?${query}` : path);
  const body =
    parts.body === undefined
      ? undefined
      : Buffer.isBuffer(parts.body)
        ? parts.body
        : Buffer.from(JSON.stringify(parts.body), 'utf8');
  return { method: parts.method, target, headers: parts.headers, body };
}
