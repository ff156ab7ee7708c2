import type { OpenAPIObject } from '@nestjs/swagger';
import { PROBLEM_CONTENT, RATE_LIMITED, REQUIRED_SCOPES_EXTENSION } from '../auth/decorators';

type Parameter = { name: string; in: string; required?: boolean };
type Answer = { description?: string; content?: unknown; headers?: Record<string, unknown> };
type Operation = {
  description?: string;
  parameters?: Parameter[];
  requestBody?: unknown;
  responses?: Record<string, Answer>;
  [extension: string]: unknown;
};

const RETRY_AFTER = {
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
};

const STATUS_TEXT: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '204': 'Done, no content',
};

/**
 * Completes the document with what every /api/v1 operation shares, so that no controller repeats
 * it and none forgets it: the problem answers the platform gives on its own (400 from validation,
 * 414/431 from the HTTP layer, 413/415 from the body parser, 429 from the rate limiter, 503 from
 * an unavailable PostgreSQL or Redis), the scopes @ApiAuth lists in the description, and a
 * description for each answer that has none. What a service refuses (404, 409, 422) the
 * controller documents.
 */
export function documentCommonAnswers(document: OpenAPIObject): void {
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Record<string, Operation>)) {
      if (!operation || typeof operation !== 'object' || !operation.responses) continue;
      if (path.startsWith('/api/v1/')) documentOperation(operation, method);
      describeAnswers(operation);
    }
  }
  allowNullInNullableEnums(document);
}

/**
 * An enum is the whole list of allowed values: a nullable one must list null too (OpenAPI 3.0.3),
 * or validators refuse the null that `nullable: true` promises.
 */
function allowNullInNullableEnums(node: unknown): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) return node.forEach(allowNullInNullableEnums);
  const schema = node as { nullable?: unknown; enum?: unknown[] };
  if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null))
    schema.enum.push(null);
  Object.values(node).forEach(allowNullInNullableEnums);
}

function documentOperation(operation: Operation, method: string): void {
  const parameters = withoutRepeatedHeaders(operation.parameters ?? []);
  if (operation.parameters) operation.parameters = parameters;
  const inPath = parameters.filter((p) => p.in === 'path');
  const inQuery = parameters.filter((p) => p.in === 'query');
  const body = operation.requestBody !== undefined;
  optionalWhereDefaulted(operation);
  const tenantHeaderRequired = parameters.some(
    (p) => p.in === 'header' && p.name === 'x-tenant-code' && p.required,
  );

  // Fastify reads a body sent with any of these methods, also where the operation takes none.
  const bodyRead = body || ['post', 'put', 'patch', 'delete'].includes(method);

  const invalid = [
    'malformed_request',
    ...(inPath.length || inQuery.length || body ? ['validation_failed (errors[] names each field)'] : []),
    ...(inPath.length ? ['malformed_url'] : []),
    ...(bodyRead ? ['malformed_json', 'json_too_deep', 'invalid_encoding (bytes that are not UTF-8)'] : []),
    ...(inQuery.some((p) => p.name === 'cursor') ? ['invalid_cursor'] : []),
    ...(tenantHeaderRequired ? ['tenant_header_required'] : []),
  ];
  answer(operation, '400', invalid.join(', '));
  if (inPath.length) answer(operation, '414', 'uri_too_long: a path parameter is over 256 characters');
  if (bodyRead) {
    answer(operation, '413', 'payload_too_large: the body is over the size limit');
    answer(
      operation,
      '415',
      'unsupported_media_type: the body is not application/json; unsupported_charset: a charset other ' +
        'than UTF-8; unsupported_content_encoding: a Content-Encoding other than identity',
    );
  }
  answer(operation, '401', 'unauthenticated: no, unknown or revoked token', false);
  answer(operation, '431', "headers_too_large: the request line and headers are over Node's limit");
  answer(operation, '429', RATE_LIMITED, true, RETRY_AFTER);
  answer(
    operation,
    '503',
    'dependency_unavailable: PostgreSQL or Redis cannot be reached; retry after Retry-After',
    true,
    RETRY_AFTER,
  );

  const scopes = operation[REQUIRED_SCOPES_EXTENSION];
  if (Array.isArray(scopes)) {
    const needs = scopes.length ? scopes.map((s) => `\`${s}\``).join(', ') : 'no scope';
    const sentence = `Token scopes: ${needs}.`;
    operation.description = operation.description ? `${operation.description}\n\n${sentence}` : sentence;
  }
}

/**
 * A body whose schema has a default may be left out (the default is what is taken then): the
 * document says so, since the generator marks every body required.
 */
function optionalWhereDefaulted(operation: Operation): void {
  const requestBody = operation.requestBody as
    { required?: boolean; content?: Record<string, { schema?: { default?: unknown } }> } | undefined;
  const schema = requestBody?.content?.['application/json']?.schema;
  if (requestBody && schema && 'default' in schema) requestBody.required = false;
}

/**
 * Header names are case-insensitive: a header a handler reads (`@Headers('accept-language')`) and
 * the one @ApiAuth documents are one parameter, the documented one.
 */
function withoutRepeatedHeaders(parameters: Parameter[]): Parameter[] {
  const key = (p: Parameter) => (p.in === 'header' ? `header:${p.name.toLowerCase()}` : `${p.in}:${p.name}`);
  const chosen = new Map<string, Parameter>();
  for (const p of parameters) {
    const seen = chosen.get(key(p));
    if (!seen || (!('description' in seen) && 'description' in p)) chosen.set(key(p), p);
  }
  return parameters.filter((p) => chosen.get(key(p)) === p);
}

/**
 * Adds the problem answer, or, where the controller documents the status already, adds the
 * platform's codes to its description (`merge`), so that both are listed.
 */
function answer(
  operation: Operation,
  status: string,
  description: string,
  merge = true,
  headers?: Record<string, unknown>,
): void {
  const responses = (operation.responses ??= {});
  const existing = responses[status];
  if (!existing) {
    responses[status] = { description, content: PROBLEM_CONTENT, ...(headers ? { headers } : {}) };
    return;
  }
  existing.content ??= PROBLEM_CONTENT;
  if (headers) existing.headers = { ...headers, ...(existing.headers ?? {}) };
  if (merge && !existing.description?.includes(description))
    existing.description = existing.description ? `${existing.description}; ${description}` : description;
}

/** Success answers documented by their schema alone get the status's meaning and the schema's name. */
function describeAnswers(operation: Operation): void {
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    if (response.description?.trim()) continue;
    const content = response.content as Record<string, { schema?: { $ref?: string } }> | undefined;
    const ref = content?.['application/json']?.schema?.$ref?.split('/').pop();
    const text = STATUS_TEXT[status] ?? `HTTP ${status}`;
    response.description = ref ? `${text}: ${ref}` : text;
  }
}
