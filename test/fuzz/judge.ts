import { isUtf8 } from 'node:buffer';
import type { InputKind } from './findings';
import type { Operation, Schema } from './openapi-arbitraries';
import type { RawRequest, RawResponse } from '../support/raw-http';
import type { ResponseSchemas } from './response-schemas';

/**
 * Mutations that can leave a request as the document allows it (an optional field dropped, null
 * where null is allowed, a number written `0.1e1`, a duplicate key whose last value is right, as
 * every JSON parser reads it): harmless exactly when the request still fits the document.
 */
const HARMLESS_WHEN_IT_FITS = [
  'wrong type',
  'missing field',
  'extra field',
  'special number',
  'decimal string that is no number',
  'duplicate key',
  'huge string',
  'huge array',
  'not an object',
  'bad query value',
  'duplicate query parameter',
];
/** Mutations of headers that describe a body: harmless on a request that sends none. */
const HARMLESS_WITHOUT_BODY = ['wrong content type', 'content encoding'];
/** Mutations of the query string: harmless on an operation that reads none. */
const HARMLESS_WITHOUT_QUERY = ['unknown query parameter', 'bad percent-encoding in query'];
/** Mutations that change nothing a server must refuse: an unknown or broken language falls back to English. */
const HARMLESS_ALWAYS = ['bad Accept-Language'];

/** An empty optional x-tenant-code names no tenant: it is taken as not sent. */
function emptyOptionalTenant(op: Operation, raw: RawRequest): boolean {
  const sent = raw.headers.find(([name]) => name.toLowerCase() === 'x-tenant-code')?.[1];
  const required = op.headerParams.some((p) => p.name === 'x-tenant-code' && p.required);
  return sent !== undefined && sent.trim() === '' && !required;
}

/**
 * Whether a malformed request may be answered 2xx (and write what a valid one writes). "Fits the
 * document" means: no validation error the valid-shaped request it was made from did not have
 * (the generator and ajv differ on some formats, e.g. which e-mail addresses are valid).
 */
export function harmless(
  op: Operation,
  schemas: ResponseSchemas,
  mutation: string,
  raw: RawRequest,
  original: RawRequest,
): boolean {
  if (HARMLESS_ALWAYS.includes(mutation)) return true;
  if (HARMLESS_WITHOUT_BODY.includes(mutation)) return !raw.body?.length;
  if (HARMLESS_WITHOUT_QUERY.includes(mutation)) return !op.queryParams.length;
  if (mutation === 'bad x-tenant-code') return emptyOptionalTenant(op, raw);
  // A mutation that replaced what the generator got wrong (a filter nested past the generator's
  // depth, say) with a value the document allows leaves a request that fits it wholly.
  const fits = () => {
    const errors = bodyErrors(op, schemas, raw.body);
    return (
      (errors === undefined || errors === bodyErrors(op, schemas, original.body)) &&
      queryFits(op, schemas, raw.target)
    );
  };
  if (mutation === 'NUL in string') return nulOnlyInPasswords(raw.body) && fits();
  return HARMLESS_WHEN_IT_FITS.includes(mutation) && fits();
}

/**
 * A password is hashed as the characters it is and never stored or shown as text: NUL is one
 * character like another there (and taken alike when it is set and when it is given).
 */
function nulOnlyInPasswords(body: Buffer | undefined): boolean {
  const nulOutside = (value: unknown, key?: string): boolean =>
    typeof value === 'string'
      ? value.includes('\u0000') && key !== 'password'
      : !!value && typeof value === 'object' && Object.entries(value).some(([k, v]) => nulOutside(v, k));
  try {
    return !nulOutside(JSON.parse(body?.toString('utf8') ?? ''));
  } catch {
    return false;
  }
}

/** The body's validation errors against the documented schema; 'unreadable' for no JSON at all. */
function bodyErrors(op: Operation, schemas: ResponseSchemas, body: Buffer | undefined): string | undefined {
  if (!op.body) return body?.length ? 'a body where none is documented' : undefined;
  if (!body?.length && !op.bodyRequired) return undefined;
  if (!body?.length || !isUtf8(body)) return 'unreadable';
  try {
    // a byte order mark may be ignored by a JSON parser (RFC 8259), and is by the apps'
    return schemas.errors(op.body, JSON.parse(body.toString('utf8').replace(/^\uFEFF/, '')));
  } catch {
    return 'unreadable';
  }
}

/** Each query parameter documented, given once, and its value of the documented type and bounds. */
function queryFits(op: Operation, schemas: ResponseSchemas, target: string): boolean {
  const query = target.split('?')[1];
  if (!query) return true;
  const seen = new Set<string>();
  for (const pair of query.split('&')) {
    const [name, value = ''] = pair.split('=').map(decoded);
    const param = op.queryParams.find((p) => p.name === name);
    if (name === undefined || value === undefined || !param || seen.has(name)) return false;
    seen.add(name);
    if (schemas.errors(param.schema, asQueryValue(param.schema, value)) !== undefined) return false;
  }
  return true;
}

function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** A query value as the schema's type reads it: only plain decimal digits are numbers. */
function asQueryValue(schema: Schema, value: string): unknown {
  const type = schema.type ?? schema.anyOf?.[0]?.type;
  if (type === 'integer') return /^-?\d+$/.test(value) ? Number(value) : value;
  if (type === 'number') return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  return value;
}

const CODE = /^[a-z_]+$/;

export interface Verdict {
  kind: InputKind;
  /** Whether the input, malformed or not, is one the document allows. */
  allowed: boolean;
  /** Whether this operation may record a rejection of an allowed input (e.g. a failed login). */
  rejectionMayWrite: boolean;
  changedTables: string[];
}

/**
 * What is wrong with an answer, as [stable class, detail], or undefined when it is right: no 5xx;
 * a 4xx is problem+json with a stable code; a 2xx has a documented status and body and answers an
 * allowed input; nothing is written for an input that is not allowed, or that is refused.
 */
export function judge(
  op: Operation,
  schemas: ResponseSchemas,
  response: RawResponse,
  verdict: Verdict,
): [string, string] | undefined {
  const { status, headers, json } = response;
  const type = headers['content-type'] ?? '';
  const excerpt = response.text.slice(0, 300);
  const changed = verdict.changedTables;
  const wrote = changed.length ? `tables: ${changed.join(', ')}` : '';
  if (status >= 500) return [`${status}`, excerpt];
  if (status >= 400) {
    if (!type.startsWith('application/problem+json'))
      return [`${status} not problem+json`, `content-type ${JSON.stringify(type)}: ${excerpt}`];
    const code = (json as { code?: unknown } | undefined)?.code;
    if (typeof code !== 'string' || !CODE.test(code)) return [`${status} without a stable code`, excerpt];
    if (wrote && !(verdict.allowed && verdict.rejectionMayWrite))
      return [`${status} ${code} changed the database`, wrote];
    return undefined;
  }
  if (status < 200 || status >= 300) return [`unexpected status ${status}`, excerpt];
  if (!verdict.allowed)
    return [`${status} for a malformed request`, `${wrote || 'nothing written'}: ${excerpt}`];
  const documented = op.responses[String(status)];
  if (!documented) return [`undocumented status ${status}`, excerpt];
  const schema = documented.content?.['application/json']?.schema;
  if (!schema)
    return status === 204 || !response.body.length ? undefined : [`${status} body not documented`, excerpt];
  if (!type.startsWith('application/json')) return [`${status} not application/json`, type];
  const errors = schemas.errors(schema, json);
  return errors
    ? [`${status} body does not match the documented schema`, `${errors}: ${excerpt}`]
    : undefined;
}
