import { StandardSchemaValidationPipe } from '@nestjs/common';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { FieldError, ProblemException } from '../errors/problem';

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

/** Validates every parameter that declares a schema (`@Body({ schema })`) and answers 400 with errors[]. */
export function createValidationPipe(): StandardSchemaValidationPipe {
  return new StandardSchemaValidationPipe({
    exceptionFactory: (issues) => new ProblemException('validation_failed', 400, {}, toFieldErrors(issues)),
  });
}
