import { z } from 'zod';
import { EVENT_TYPES } from '@fincore/events';
import { EndpointOrdering, EndpointPayload, EndpointStatus } from '@fincore/notifications';
import { boundedInt, freeText, instant } from '@fincore/platform';
import { SIGNATURE_SCHEMES } from '@fincore/webhooks';
import { NotificationTypeCode, nullableTimestamp, timestamp } from '../common/common.schemas';
import { MAX_RATE_LIMIT } from './domain/endpoint-rules';
import { ClientTlsRequest, ClientTlsResponse } from './endpoint-tls.schemas';
import { EventFilter } from './event-filter.schemas';
import {
  createWebhookEndpointExample,
  publicKeyExample,
  replayRequestExample,
  replayResultExample,
  rotatedSecretExample,
  webhookEndpointExample,
  updateWebhookEndpointExample,
  webhookEndpointWithSecretExample,
} from './webhook-endpoints.examples';

/** OpenAPI 3.0 wants a type beside `nullable`, also where the rest is a reference (the filter). */
const NULLABLE_OBJECT = { type: 'object' } as const;

/** The column's size; the URL is stored normalised, which percent-encoding can make much longer than sent. */
const URL_MAX_LENGTH = 2048;
const fitsOnceNormalised = (raw: string) => !URL.canParse(raw) || new URL(raw).href.length <= URL_MAX_LENGTH;

const RateLimit = boundedInt({ min: 1, max: MAX_RATE_LIMIT })
  .nullable()
  .describe(
    'Deliveries per second at most to this endpoint, across every notifier replica; null: unlimited. ' +
      'Deliveries over the limit wait their turn, they do not fail',
  );

const SignatureSchemes = z
  .array(z.enum(SIGNATURE_SCHEMES))
  .min(1)
  .max(SIGNATURE_SCHEMES.length)
  .refine((schemes) => new Set(schemes).size === schemes.length, 'each scheme at most once')
  .describe(
    'Standard Webhooks signatures sent: v1 (HMAC-SHA256 with the secret), v1a (ed25519, verified with ' +
      'the public key), or both during a migration (space-separated in webhook-signature)',
  );

const Ordering = z
  .enum(EndpointOrdering)
  .describe(
    'NONE: events are sent in parallel (fastest). SUBJECT: events about one subject (one person, one card) ' +
      'arrive one at a time in commit order, each carrying `subject` and `sequence` (1, 2, 3… per subject ' +
      'for this endpoint); a later event waits while an earlier one is retried, other subjects go on. ' +
      'A delivery that fails for good leaves a gap in the sequence and the chain moves on',
  );

const Payload = z
  .enum(EndpointPayload)
  .describe(
    'FULL: each webhook carries the whole event. THIN: only id, type, tenantCode, occurredAt, subject, ' +
      'sequence, and of the data the ids of what the event is about and `changedFields` where the type ' +
      'has them (schemas per type: GET /api/v1/notification-types, `thinDataSchema`); the receiver ' +
      'fetches the current state through the API, and never holds personal data from a webhook. ' +
      'Applies to every attempt from the change on, retries and replays included',
  );

export const CreateWebhookEndpointRequest = z
  .object({
    // no control characters or unpaired surrogates: normalising would percent-encode them into another URL
    url: freeText({ max: URL_MAX_LENGTH, trim: false })
      .refine(
        fitsOnceNormalised,
        `must be at most ${URL_MAX_LENGTH} characters once normalised (percent-encoded)`,
      )
      .describe(
        'Where to POST; https (or http), public addresses only unless the operator allows private networks',
      ),
    description: freeText({ max: 500, min: 0, multiline: true }).optional(),
    notificationTypeCodes: z
      .array(NotificationTypeCode)
      .min(1)
      .max(EVENT_TYPES.length)
      .optional()
      .describe('Types this endpoint receives; omitted: every type the tenant enables'),
    rateLimit: RateLimit.optional(),
    signatureSchemes: SignatureSchemes.optional().describe('Default ["v1"]'),
    ordering: Ordering.optional().describe(`${Ordering.description} (default NONE)`),
    filter: EventFilter.nullable()
      .meta(NULLABLE_OBJECT)
      .optional()
      .describe('Payload filter; omitted or null: every event of its types'),
    tls: ClientTlsRequest.nullable().optional().describe('Mutual TLS; omitted or null: none'),
    payload: Payload.optional().describe(`${Payload.description} (default FULL)`),
  })
  .strict()
  .meta({ id: 'CreateWebhookEndpointRequest', example: createWebhookEndpointExample });

export const UpdateWebhookEndpointRequest = z
  .object({
    ordering: Ordering.optional().describe('Omitted: unchanged'),
    payload: Payload.optional().describe('Omitted: unchanged'),
    rateLimit: RateLimit.optional().describe('null removes the limit; omitted: unchanged'),
    signatureSchemes: SignatureSchemes.optional().describe('Omitted: unchanged'),
    filter: EventFilter.nullable()
      .meta(NULLABLE_OBJECT)
      .optional()
      .describe('null removes the filter; omitted: unchanged'),
    tls: ClientTlsRequest.nullable()
      .optional()
      .describe('Replaces the material; null removes it; omitted: unchanged'),
  })
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'at least one field to change')
  .meta({ id: 'UpdateWebhookEndpointRequest', example: updateWebhookEndpointExample });

export const WebhookEndpointResponse = z
  .object({
    id: z.uuid(),
    url: z.string(),
    description: z.string().nullable(),
    notificationTypeCodes: z.array(z.string()).nullable().describe('null: every type the tenant enables'),
    status: z.enum(EndpointStatus),
    ordering: Ordering,
    payload: Payload,
    disabledReason: z
      .string()
      .nullable()
      .describe('Why the endpoint was disabled (by the tenant, by a 410, or after failing too long)'),
    disabledAt: nullableTimestamp,
    failingSince: nullableTimestamp.describe('First failure since the last success'),
    lastSuccessAt: nullableTimestamp.describe('Last acknowledged delivery, to within a second'),
    rateLimit: z.number().int().nullable().describe('Deliveries per second at most; null: unlimited'),
    signatureSchemes: z.array(z.enum(SIGNATURE_SCHEMES)).describe('Signatures each delivery carries'),
    publicKey: z
      .string()
      .nullable()
      .describe('ed25519 public key (whpk_…) that verifies v1a signatures; null while the endpoint has none'),
    filter: EventFilter.nullable()
      .meta(NULLABLE_OBJECT)
      .describe('Payload filter; null: every event of its types'),
    tls: ClientTlsResponse.nullable().describe('Mutual TLS presented on every attempt; null: none'),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'WebhookEndpoint', example: webhookEndpointExample });

export const WebhookEndpointWithSecretResponse = WebhookEndpointResponse.extend({
  secret: z.string().describe('Signing secret (Standard Webhooks, whsec_…); shown only now, keep it safe'),
}).meta({ id: 'WebhookEndpointWithSecret', example: webhookEndpointWithSecretExample });

export const WebhookEndpointList = z
  .object({ items: z.array(WebhookEndpointResponse) })
  .meta({ id: 'WebhookEndpointList' });

export const RotateSecretResponse = z
  .object({
    id: z.uuid(),
    secret: z.string().describe('The new signing secret; shown only now'),
    previousSecretExpiresAt: nullableTimestamp.describe(
      'Until then deliveries carry a signature with the old secret (and old key pair) as well',
    ),
    publicKey: z
      .string()
      .nullable()
      .describe('The new ed25519 public key (whpk_…), when the endpoint has a key pair'),
  })
  .meta({ id: 'RotatedWebhookSecret', example: rotatedSecretExample });

export const PublicKeyResponse = z
  .object({
    id: z.uuid(),
    publicKey: z.string().nullable().describe('ed25519 public key (whpk_…, base64 of the 32 raw bytes)'),
    previousPublicKey: z
      .string()
      .nullable()
      .describe('The key before the last rotation; deliveries carry its v1a signature too until it expires'),
    previousPublicKeyExpiresAt: nullableTimestamp,
  })
  .meta({ id: 'WebhookEndpointPublicKey', example: publicKeyExample });

export const ReplayRequest = z
  .object({
    since: instant().describe('Replay failed deliveries created at or after this instant'),
    until: instant().optional().describe('…and before this one (default: now)'),
  })
  .strict()
  .meta({ id: 'ReplayFailedDeliveriesRequest', example: replayRequestExample });

export const ReplayResponse = z
  .object({ endpointId: z.uuid(), replayed: z.number().int().describe('Failed deliveries queued again') })
  .meta({ id: 'ReplayFailedDeliveriesResult', example: replayResultExample });

export type CreateWebhookEndpointRequest = z.infer<typeof CreateWebhookEndpointRequest>;
export type UpdateWebhookEndpointRequest = z.infer<typeof UpdateWebhookEndpointRequest>;
export type PublicKeyResponse = z.infer<typeof PublicKeyResponse>;
export type WebhookEndpointResponse = z.infer<typeof WebhookEndpointResponse>;
export type WebhookEndpointWithSecretResponse = z.infer<typeof WebhookEndpointWithSecretResponse>;
export type RotateSecretResponse = z.infer<typeof RotateSecretResponse>;
export type ReplayRequest = z.infer<typeof ReplayRequest>;
export type ReplayResponse = z.infer<typeof ReplayResponse>;
