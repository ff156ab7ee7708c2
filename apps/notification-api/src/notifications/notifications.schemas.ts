import { z } from 'zod';
import { EVENT_TYPES } from '@fincore/events';
import { CHANNEL_CODES } from './domain/channels';

const oneOf = (values: readonly string[]) => () => `must be one of ${values.join(', ')}`;
const timestamp = z.iso.datetime({ offset: true });
const nullableTimestamp = timestamp.nullable();

export const NotificationTypeCode = z
  .enum(EVENT_TYPES as [string, ...string[]], { error: oneOf(EVENT_TYPES) })
  .describe(`Notification type: ${EVENT_TYPES.join(', ')}`);
export const ChannelCode = z
  .enum(CHANNEL_CODES, { error: oneOf(CHANNEL_CODES) })
  .describe(`Channel: ${CHANNEL_CODES.join(', ')} (only WEBHOOK is implemented)`);
export const EntityId = z.uuid({ error: 'must be a UUID' });

// ---- notification configuration (the spec's operation) ----

const configExample = { notificationTypeCode: 'PERSON_UPDATED', channelCode: 'WEBHOOK' };

export const NotificationConfigRequest = z
  .object({ notificationTypeCode: NotificationTypeCode, channelCode: ChannelCode })
  .strict()
  .meta({ id: 'NotificationConfigRequest', example: configExample });

export const NotificationConfigResponse = z
  .object({
    notificationTypeCode: z.string().describe('As sent'),
    channelCode: z.string().describe('As sent'),
    enabled: z.boolean().describe('Whether notifications of this type are generated through this channel'),
    enabledAt: nullableTimestamp.describe('Since when; events that occurred earlier produce no notification'),
    updatedAt: timestamp,
  })
  .meta({
    id: 'NotificationConfig',
    example: {
      ...configExample,
      enabled: true,
      enabledAt: '2026-01-10T12:00:00.000Z',
      updatedAt: '2026-01-10T12:00:00.000Z',
    },
  });

export const NotificationConfigList = z
  .object({ items: z.array(NotificationConfigResponse) })
  .meta({ id: 'NotificationConfigList', example: { items: [NotificationConfigResponse.meta()?.example] } });

export const NotificationTypeResponse = z
  .object({
    code: z
      .string()
      .describe('Notification type code, as used by notification-config and in webhook envelopes (`type`)'),
    description: z.string(),
    channels: z.array(z.string()).describe('Channels through which this type can be delivered'),
    dataSchema: z.record(z.string(), z.unknown()).describe('JSON Schema (2020-12) of the envelope `data`'),
  })
  .meta({
    id: 'NotificationType',
    example: {
      code: 'PERSON_UPDATED',
      description: 'A person changed: profile fields, or the status of their credentials.',
      channels: ['WEBHOOK'],
      dataSchema: { type: 'object', properties: { personId: { type: 'string' } } },
    },
  });

export const NotificationTypeList = z
  .object({ items: z.array(NotificationTypeResponse) })
  .meta({ id: 'NotificationTypeList' });

// ---- webhook endpoints ----

/** The column's size; the URL is stored normalised, which percent-encoding can make much longer than sent. */
const URL_MAX_LENGTH = 2048;
const fitsOnceNormalised = (raw: string) => !URL.canParse(raw) || new URL(raw).href.length <= URL_MAX_LENGTH;

export const CreateWebhookEndpointRequest = z
  .object({
    url: z
      .string()
      .max(URL_MAX_LENGTH)
      .refine(
        fitsOnceNormalised,
        `must be at most ${URL_MAX_LENGTH} characters once normalised (percent-encoded)`,
      )
      .describe(
        'Where to POST; https (or http), public addresses only unless the operator allows private networks',
      ),
    description: z
      .string()
      .trim()
      .max(500)
      .refine((s) => !s.includes('\u0000'), 'must not contain NUL characters')
      .optional(),
    notificationTypeCodes: z
      .array(NotificationTypeCode)
      .min(1)
      .max(EVENT_TYPES.length)
      .optional()
      .describe('Types this endpoint receives; omitted: every type the tenant enables'),
  })
  .strict()
  .meta({
    id: 'CreateWebhookEndpointRequest',
    example: {
      url: 'https://hooks.example.com/fincore',
      description: 'CRM sync',
      notificationTypeCodes: ['PERSON_UPDATED'],
    },
  });

const endpointExample = {
  id: '0b9f3c52-4a6e-4c38-9f3e-1f4c8e7d2a10',
  url: 'https://hooks.example.com/fincore',
  description: 'CRM sync',
  notificationTypeCodes: ['PERSON_UPDATED'],
  status: 'ACTIVE',
  disabledReason: null,
  disabledAt: null,
  failingSince: null,
  lastSuccessAt: '2026-01-10T12:00:05.000Z',
  createdAt: '2026-01-10T12:00:00.000Z',
  updatedAt: '2026-01-10T12:00:00.000Z',
};

export const WebhookEndpointResponse = z
  .object({
    id: z.uuid(),
    url: z.string(),
    description: z.string().nullable(),
    notificationTypeCodes: z.array(z.string()).nullable().describe('null: every type the tenant enables'),
    status: z.enum(['ACTIVE', 'DISABLED']),
    disabledReason: z
      .string()
      .nullable()
      .describe('Why the endpoint was disabled (by the tenant, by a 410, or after failing too long)'),
    disabledAt: nullableTimestamp,
    failingSince: nullableTimestamp.describe('First failure since the last success'),
    lastSuccessAt: nullableTimestamp.describe('Last acknowledged delivery, to within a second'),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'WebhookEndpoint', example: endpointExample });

const secretExample = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

export const WebhookEndpointWithSecretResponse = WebhookEndpointResponse.extend({
  secret: z.string().describe('Signing secret (Standard Webhooks, whsec_…); shown only now, keep it safe'),
}).meta({ id: 'WebhookEndpointWithSecret', example: { ...endpointExample, secret: secretExample } });

export const WebhookEndpointList = z
  .object({ items: z.array(WebhookEndpointResponse) })
  .meta({ id: 'WebhookEndpointList' });

export const RotateSecretResponse = z
  .object({
    id: z.uuid(),
    secret: z.string().describe('The new signing secret; shown only now'),
    previousSecretExpiresAt: nullableTimestamp.describe(
      'Until then deliveries carry a signature with the old secret as well',
    ),
  })
  .meta({
    id: 'RotatedWebhookSecret',
    example: {
      id: endpointExample.id,
      secret: secretExample,
      previousSecretExpiresAt: '2026-01-11T12:00:00.000Z',
    },
  });

export const ReplayRequest = z
  .object({
    since: timestamp.describe('Replay failed deliveries created at or after this instant'),
    until: timestamp.optional().describe('…and before this one (default: now)'),
  })
  .strict()
  .meta({ id: 'ReplayFailedDeliveriesRequest', example: { since: '2026-01-10T00:00:00Z' } });

export const ReplayResponse = z
  .object({ endpointId: z.uuid(), replayed: z.number().int().describe('Failed deliveries queued again') })
  .meta({ id: 'ReplayFailedDeliveriesResult', example: { endpointId: endpointExample.id, replayed: 3 } });

// ---- deliveries ----

export const DeliveryStatusCode = z.enum(['PENDING', 'SUCCEEDED', 'FAILED'], {
  error: oneOf(['PENDING', 'SUCCEEDED', 'FAILED']),
});

export const DeliveryListQuery = z
  .object({
    status: DeliveryStatusCode.optional(),
    endpointId: EntityId.optional(),
    notificationTypeCode: NotificationTypeCode.optional(),
    limit: z.coerce.number().int().min(1).max(100).default(20).describe('Page size, 1-100'),
    cursor: z.string().max(200).optional().describe('nextCursor of the previous page'),
  })
  .strict()
  .meta({ id: 'WebhookDeliveryListQuery' });

const deliveryExample = {
  id: '5d0c8a4e-3b1f-4f6a-9a0e-2c7b9e1d4f33',
  endpointId: endpointExample.id,
  eventId: '9a1e7f60-2d4b-4c1a-8e5f-7b3c2d1e0f99',
  notificationTypeCode: 'PERSON_UPDATED',
  status: 'SUCCEEDED',
  attemptCount: 3,
  nextAttemptAt: null,
  lastAttemptAt: '2026-01-10T12:05:10.000Z',
  lastStatusCode: 200,
  lastError: null,
  deliveredAt: '2026-01-10T12:05:10.000Z',
  eventOccurredAt: '2026-01-10T12:00:00.000Z',
  createdAt: '2026-01-10T12:00:00.100Z',
};

export const WebhookDeliveryResponse = z
  .object({
    id: z.uuid(),
    endpointId: z.uuid(),
    eventId: z.uuid().describe('Also the webhook-id header and the envelope id; the same on every attempt'),
    notificationTypeCode: z.string(),
    status: z.enum(['PENDING', 'SUCCEEDED', 'FAILED']),
    attemptCount: z.number().int(),
    nextAttemptAt: nullableTimestamp,
    lastAttemptAt: nullableTimestamp,
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    deliveredAt: nullableTimestamp,
    eventOccurredAt: timestamp,
    createdAt: timestamp,
  })
  .meta({ id: 'WebhookDelivery', example: deliveryExample });

export const WebhookDeliveryAttemptResponse = z
  .object({
    attemptNumber: z.number().int(),
    startedAt: timestamp,
    durationMs: z.number().int(),
    statusCode: z.number().int().nullable().describe('null when no response arrived'),
    outcome: z.enum(['SUCCEEDED', 'FAILED']),
    error: z.string().nullable(),
    responseExcerpt: z.string().nullable().describe('First bytes of the response body'),
  })
  .meta({ id: 'WebhookDeliveryAttempt' });

export const WebhookDeliveryDetailResponse = WebhookDeliveryResponse.extend({
  attempts: z.array(WebhookDeliveryAttemptResponse),
}).meta({
  id: 'WebhookDeliveryDetail',
  example: {
    ...deliveryExample,
    attempts: [
      {
        attemptNumber: 1,
        startedAt: '2026-01-10T12:00:00.200Z',
        durationMs: 31,
        statusCode: 500,
        outcome: 'FAILED',
        error: 'HTTP 500',
        responseExcerpt: 'oops',
      },
      {
        attemptNumber: 2,
        startedAt: '2026-01-10T12:00:05.300Z',
        durationMs: 12,
        statusCode: 200,
        outcome: 'SUCCEEDED',
        error: null,
        responseExcerpt: 'ok',
      },
    ],
  },
});

export const WebhookDeliveryList = z
  .object({
    items: z.array(WebhookDeliveryResponse),
    nextCursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last'),
  })
  .meta({ id: 'WebhookDeliveryList', example: { items: [deliveryExample], nextCursor: null } });

export type NotificationConfigRequest = z.infer<typeof NotificationConfigRequest>;
export type CreateWebhookEndpointRequest = z.infer<typeof CreateWebhookEndpointRequest>;
export type ReplayRequest = z.infer<typeof ReplayRequest>;
export type DeliveryListQuery = z.infer<typeof DeliveryListQuery>;
