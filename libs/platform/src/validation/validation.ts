import { StandardSchemaValidationPipe } from '@nestjs/common';
import { stripProtoKeys } from '@nestjs/common/utils/strip-proto-keys.util';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { FieldError } from '../errors/problem';
import { validationFailed } from './validation.problems';

/** `authorisationTypes[2].serviceCode` from a Standard Schema issue path. */
export function fieldPath(path: StandardSchemaV1.Issue['path']): string {
  let out = '';
  for (const segment of path ?? []) {
    const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

/** What a zod issue carries besides its message: its kind and the figures its message names. */
interface IssueDetails {
  message: string;
  code?: string;
  origin?: string;
  format?: string;
  expected?: string;
  inclusive?: boolean;
  exact?: boolean;
  minimum?: number | bigint;
  maximum?: number | bigint;
  values?: unknown[];
  keys?: string[];
  divisor?: number;
}

/** Keys of the localised messages for an issue, the most specific first (see messages.ts). */
function messageKeys(issue: IssueDetails): string[] {
  const kind = `zod.${issue.code ?? 'custom'}`;
  switch (issue.code) {
    case 'invalid_type':
      // Issues do not carry the input; zod's own message names what it received.
      return issue.message.endsWith('received undefined')
        ? ['zod.required']
        : [`${kind}.${issue.expected}`, kind];
    case 'too_small':
    case 'too_big': {
      const bound = issue.exact ? '.exact' : issue.inclusive === false ? '.exclusive' : '';
      const empty = issue.code === 'too_small' && !bound && Number(issue.minimum) === 1;
      return [
        ...(empty ? [`${kind}.${issue.origin}.nonempty`] : []),
        `${kind}.${issue.origin}${bound}`,
        `${kind}.${issue.origin}`,
        kind,
      ];
    }
    case 'invalid_format':
      return [`${kind}.${issue.format}`, kind];
    default:
      return [kind];
  }
}

function messageParams(issue: IssueDetails): Record<string, unknown> {
  const { minimum, maximum, values, keys, divisor, expected, format } = issue;
  return {
    minimum: minimum === undefined ? undefined : String(minimum),
    maximum: maximum === undefined ? undefined : String(maximum),
    values: values?.map(String),
    keys,
    divisor,
    expected,
    format,
  };
}

/**
 * One entry per invalid field, from its first issue: a later one (a cross-field rule seeing a
 * value already refused) would only mislead. The message is the schema's or zod's English; other
 * languages take the schema message's translation, or else the one of the issue's kind.
 */
export function toFieldErrors(issues: readonly StandardSchemaV1.Issue[]): FieldError[] {
  const byField = new Map<string, FieldError>();
  for (const issue of issues) {
    const field = fieldPath(issue.path);
    if (byField.has(field)) continue;
    const details = issue as IssueDetails;
    byField.set(field, {
      field,
      message: issue.message,
      messageKeys: messageKeys(details),
      messageParams: messageParams(details),
    });
  }
  return [...byField.values()];
}

/** Deeper than any body the JSON parser lets through (see MAX_JSON_DEPTH). */
const PLAIN_WALK_DEPTH = 64;
const PROTO_KEYS = ['__proto__', 'prototype', 'constructor'];

/**
 * Nest's stripProtoKeys for plain data (JSON bodies, query objects): deletes the own keys
 * `__proto__`, `prototype` and `constructor` at every level, as it does, without its per-object
 * bookkeeping. Answers false, part done, on anything else (class instances, built-ins, nesting
 * deeper than any parsed body), for Nest's walk to finish.
 */
export function stripPlainProtoKeys(value: unknown, depth = 0): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (depth > PLAIN_WALK_DEPTH) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (!stripPlainProtoKeys(item, depth + 1)) return false;
    return true;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  const record = value as Record<string, unknown>;
  for (const key of PROTO_KEYS) if (Object.hasOwn(record, key)) Reflect.deleteProperty(record, key);
  for (const key in record) if (!stripPlainProtoKeys(record[key], depth + 1)) return false;
  return true;
}

/** Nest's standard-schema pipe, with the plain-data walk in front of its own. */
class SchemaValidationPipe extends StandardSchemaValidationPipe {
  protected override stripProtoKeys(value: unknown): void {
    if (!stripPlainProtoKeys(value)) stripProtoKeys(value);
  }
}

/** Validates every parameter that declares a schema (`@Body({ schema })`) and answers 400 with errors[]. */
export function createValidationPipe(): StandardSchemaValidationPipe {
  return new SchemaValidationPipe({
    exceptionFactory: (issues) => validationFailed(toFieldErrors(issues)),
  });
}
