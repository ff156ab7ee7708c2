import { z } from 'zod';
import { boundedIntParam, cursorParam, instant } from '@fincore/platform';
import { NotificationTypeCode, timestamp } from '../common/common.schemas';
import { eventPageExample, streamedEventExample } from './events.examples';

export const EventStreamQuery = z
  .object({
    after: cursorParam()
      .optional()
      .describe(
        'nextCursor of the previous answer; without it (and without since), from the start of the retention window',
      ),
    since: instant()
      .optional()
      .describe('Instead of after: start with the events recorded after this instant (ISO 8601 with offset)'),
    types: z
      .string()
      .max(500)
      .transform((v) => v.split(','))
      .pipe(z.array(NotificationTypeCode).min(1))
      .optional()
      .describe('Comma-separated notification types; all the tenant enabled for WEBHOOK without it'),
    limit: boundedIntParam({ min: 1, max: 100 }).default(50).describe('Most events per answer, 1-100'),
    waitSeconds: boundedIntParam({ min: 0, max: 30 })
      .default(0)
      .describe('With no event to answer, wait up to this long for one (0-30)'),
  })
  .strict()
  .superRefine((query, ctx) => {
    if (query.after !== undefined && query.since !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['since'], message: 'give after or since, not both' });
    }
  });

/** The envelope a webhook carries, byte for byte the same members. */
export const WebhookEnvelopeResponse = z
  .object({
    id: z.uuid().describe('Also the webhook-id of its webhooks'),
    type: z.string(),
    tenantCode: z.string(),
    occurredAt: timestamp,
    correlationId: z.string().nullable(),
    subject: z.object({ type: z.enum(['person', 'card']), id: z.string() }),
    sequence: z.number().int().nullable().describe('Always null here: sequences are per endpoint'),
    data: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'WebhookEnvelope' });

export const StreamedEventResponse = z
  .object({
    cursor: z.string().describe('Pass as after to continue after this event'),
    event: WebhookEnvelopeResponse,
  })
  .meta({ id: 'StreamedEvent', example: streamedEventExample });

export const EventPage = z
  .object({
    items: z.array(StreamedEventResponse),
    nextCursor: z
      .string()
      .nullable()
      .describe('Pass as after next time; null only when nothing was read yet from the start'),
  })
  .meta({ id: 'EventPage', example: eventPageExample });

export type EventStreamQuery = z.infer<typeof EventStreamQuery>;
export type StreamedEventResponse = z.infer<typeof StreamedEventResponse>;
export type EventPage = z.infer<typeof EventPage>;
