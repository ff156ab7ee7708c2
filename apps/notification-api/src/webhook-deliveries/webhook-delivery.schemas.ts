import { z } from 'zod';
import { AttemptOutcome, DELIVERY_STATUSES, DeliveryStatus } from '@fincore/notifications';
import { boundedIntParam, cursorParam, instant } from '@fincore/platform';
import {
  EntityId,
  NotificationTypeCode,
  nullableTimestamp,
  oneOf,
  timestamp,
} from '../common/common.schemas';
import {
  webhookDeliveryDetailExample,
  webhookDeliveryExample,
  webhookDeliveryListExample,
} from './webhook-deliveries.examples';

export const DeliveryStatusCode = z.enum(DeliveryStatus, { error: oneOf(DELIVERY_STATUSES) });

export const DeliveryListQuery = z
  .object({
    status: DeliveryStatusCode.optional().describe('Only deliveries in this status'),
    endpointId: EntityId.optional().describe('Only deliveries to this webhook endpoint'),
    notificationTypeCode: NotificationTypeCode.optional(),
    eventId: EntityId.optional().describe(
      'Only the deliveries of this event: the webhook-id header and envelope id a receiver saw',
    ),
    since: instant()
      .optional()
      .describe('Only deliveries created at or after this instant (ISO 8601 with offset)'),
    until: instant().optional().describe('Only deliveries created before this instant; after since'),
    limit: boundedIntParam({ min: 1, max: 100 }).default(20).describe('Page size, 1-100'),
    cursor: cursorParam().optional().describe('nextCursor of the previous page, sent with the same filters'),
  })
  .strict()
  .superRefine((query, ctx) => {
    if (
      query.since !== undefined &&
      query.until !== undefined &&
      Date.parse(query.until) <= Date.parse(query.since)
    )
      ctx.addIssue({ code: 'custom', path: ['until'], message: 'must be after since' });
  });

export const WebhookDeliveryResponse = z
  .object({
    id: z.uuid(),
    endpointId: z.uuid(),
    eventId: z.uuid().describe('Also the webhook-id header and the envelope id; the same on every attempt'),
    notificationTypeCode: z.string(),
    status: z.enum(DeliveryStatus),
    attemptCount: z.number().int(),
    nextAttemptAt: nullableTimestamp,
    lastAttemptAt: nullableTimestamp,
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    deliveredAt: nullableTimestamp,
    eventOccurredAt: timestamp,
    createdAt: timestamp,
  })
  .meta({ id: 'WebhookDelivery', example: webhookDeliveryExample });

export const WebhookDeliveryAttemptResponse = z
  .object({
    attemptNumber: z.number().int(),
    startedAt: timestamp,
    durationMs: z.number().int(),
    statusCode: z.number().int().nullable().describe('null when no response arrived'),
    outcome: z.enum(AttemptOutcome),
    error: z.string().nullable(),
    responseExcerpt: z.string().nullable().describe('First bytes of the response body'),
    requestHeaders: z
      .record(z.string(), z.string())
      .nullable()
      .describe(
        'The headers the attempt sent: webhook-id, webhook-timestamp, webhook-signature (never a secret), content type, user agent; null when the destination was refused before a request',
      ),
  })
  .meta({ id: 'WebhookDeliveryAttempt' });

export const WebhookDeliveryDetailResponse = WebhookDeliveryResponse.extend({
  requestBody: z
    .string()
    .nullable()
    .describe(
      "The body its webhook carries, built for the endpoint from the event as stored now (a person's erased data stays erased); null once the event has left retention",
    ),
  attempts: z.array(WebhookDeliveryAttemptResponse),
}).meta({ id: 'WebhookDeliveryDetail', example: webhookDeliveryDetailExample });

export const WebhookDeliveryList = z
  .object({
    items: z.array(WebhookDeliveryResponse),
    nextCursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last'),
  })
  .meta({ id: 'WebhookDeliveryList', example: webhookDeliveryListExample });

export type DeliveryListQuery = z.infer<typeof DeliveryListQuery>;
export type WebhookDeliveryResponse = z.infer<typeof WebhookDeliveryResponse>;
export type WebhookDeliveryAttemptResponse = z.infer<typeof WebhookDeliveryAttemptResponse>;
export type WebhookDeliveryDetailResponse = z.infer<typeof WebhookDeliveryDetailResponse>;
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryList>;
