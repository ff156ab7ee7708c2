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

export function toFieldErrors(issues: readonly StandardSchemaV1.Issue[]): FieldError[] {
  return issues.map((issue) => ({ field: fieldPath(issue.path), message: issue.message }));
}

/** Validates every parameter that declares a schema (`@Body({ schema })`) and answers 400 with errors[]. */
export function createValidationPipe(): StandardSchemaValidationPipe {
  return new StandardSchemaValidationPipe({
    exceptionFactory: (issues) => new ProblemException('validation_failed', 400, {}, toFieldErrors(issues)),
  });
}
