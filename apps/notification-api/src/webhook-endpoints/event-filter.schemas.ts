import { z } from 'zod';
import {
  checkEventFilter,
  FILTER_PATH_PATTERN,
  MAX_FILTER_CONDITIONS,
  MAX_FILTER_DEPTH,
  MAX_FILTER_STRING,
  MAX_FILTER_VALUES,
} from '@fincore/notifications';

const SELF = { $ref: '#/components/schemas/EventFilter' };
const scalar = {
  oneOf: [
    { type: 'string', maxLength: MAX_FILTER_STRING },
    { type: 'number' },
    { type: 'boolean' },
    { type: 'string', nullable: true, enum: [null], description: 'null' },
  ],
};
const path = {
  type: 'string',
  pattern: FILTER_PATH_PATTERN,
  description: 'type, subject, subject.type, subject.id, or data.<key>… (a digit key indexes an array)',
};
const condition = (operator: string, value: object, description: string) => ({
  type: 'object',
  description,
  required: ['path', operator],
  additionalProperties: false,
  properties: { path, [operator]: value },
});
const combination = (operator: string, description: string) => ({
  type: 'object',
  description,
  required: [operator],
  additionalProperties: false,
  properties: { [operator]: { type: 'array', minItems: 1, maxItems: MAX_FILTER_CONDITIONS, items: SELF } },
});

/**
 * Checked by checkEventFilter, whose answer names the wrong path or operator; the document spells
 * the same grammar out for clients.
 */
export const EventFilter = z
  .unknown()
  .superRefine((value, ctx) => {
    const problem = checkEventFilter(value);
    if (problem)
      ctx.addIssue({
        code: 'custom',
        message: problem.message,
        path: problem.at ? problem.at.split('.') : [],
      });
  })
  .meta({
    id: 'EventFilter',
    description:
      'Which events of its types the endpoint receives, over the webhook envelope: a condition on a path ' +
      `(equals, in, exists, contains), or all/any of filters, nested at most ${MAX_FILTER_DEPTH} levels with ` +
      `at most ${MAX_FILTER_CONDITIONS} conditions. A path that is missing matches only exists: false`,
    oneOf: [
      condition('equals', scalar, 'The value at path is exactly this'),
      condition(
        'in',
        { type: 'array', minItems: 1, maxItems: MAX_FILTER_VALUES, items: scalar },
        'One of these',
      ),
      condition('exists', { type: 'boolean' }, 'The path is present (true) or absent (false)'),
      condition('contains', scalar, 'The value at path is an array holding this'),
      combination('all', 'Every filter holds'),
      combination('any', 'At least one filter holds'),
    ],
    example: { path: 'data.changedFields', contains: 'credentials.status' },
  });
