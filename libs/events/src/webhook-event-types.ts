import { z } from 'zod';
import { EventTypeEntry, isoDateTime } from './event-type-entry';

const EndpointRef = {
  endpointId: z.string().describe('The webhook endpoint the event is about (its subject)'),
  url: z.string().describe("The endpoint's URL"),
};

/** The event types about webhook delivery itself, whose subject is an endpoint (part of EVENT_CATALOG). */
export const WEBHOOK_EVENT_CATALOG = {
  WEBHOOK_ENDPOINT_DISABLED: {
    description:
      'A webhook endpoint stopped receiving: it failed for the whole disable period, its receiver answered 410, ' +
      'or the tenant disabled it. Never sent to the endpoint itself.',
    schema: z
      .object({
        ...EndpointRef,
        reason: z.string().describe('Why, as the endpoint shows it in disabledReason'),
        disabledAt: isoDateTime,
      })
      .meta({ id: 'WebhookEndpointDisabledData' }),
    example: {
      endpointId: '7b0e3c1e-2a44-4d1c-9a55-3f7a2f1b6c01',
      url: 'https://hooks.example.com/fincore',
      reason: 'the receiver answered 410 Gone',
      disabledAt: '2026-03-01T10:15:00.000Z',
    },
    ids: ['endpointId'],
    personalData: [],
  },
  WEBHOOK_ENDPOINT_FAILING: {
    description:
      "A webhook endpoint's failures have lasted half the disable period without a success: it will be " +
      'disabled at disablesAt unless a delivery succeeds. Once per failure streak; never sent to the endpoint itself.',
    schema: z
      .object({
        ...EndpointRef,
        failingSince: isoDateTime.describe('First failure since the last success'),
        disablesAt: isoDateTime.describe('When the endpoint is disabled if nothing succeeds until then'),
        lastError: z.string().nullable().describe('The last failed attempt: HTTP status or transport error'),
      })
      .meta({ id: 'WebhookEndpointFailingData' }),
    example: {
      endpointId: '7b0e3c1e-2a44-4d1c-9a55-3f7a2f1b6c01',
      url: 'https://hooks.example.com/fincore',
      failingSince: '2026-03-01T10:00:00.000Z',
      disablesAt: '2026-03-06T10:00:00.000Z',
      lastError: 'HTTP 503',
    },
    ids: ['endpointId'],
    personalData: [],
  },
  WEBHOOK_ENDPOINT_RECOVERED: {
    description:
      'A webhook endpoint reported as failing (WEBHOOK_ENDPOINT_FAILING) accepted a delivery again. ' +
      'Never sent to the endpoint itself.',
    schema: z
      .object({
        ...EndpointRef,
        failingNotifiedAt: isoDateTime.describe('When WEBHOOK_ENDPOINT_FAILING was emitted'),
        recoveredAt: isoDateTime,
      })
      .meta({ id: 'WebhookEndpointRecoveredData' }),
    example: {
      endpointId: '7b0e3c1e-2a44-4d1c-9a55-3f7a2f1b6c01',
      url: 'https://hooks.example.com/fincore',
      failingNotifiedAt: '2026-03-03T22:00:00.000Z',
      recoveredAt: '2026-03-04T08:30:00.000Z',
    },
    ids: ['endpointId'],
    personalData: [],
  },
  WEBHOOK_DELIVERY_EXHAUSTED: {
    description:
      'A delivery failed for good: its retry schedule ran out. Not emitted for deliveries of webhook events ' +
      'themselves, nor for those ended by disabling their endpoint. Never sent to the endpoint itself.',
    schema: z
      .object({
        ...EndpointRef,
        deliveryId: z.string(),
        eventId: z.string().describe('The event that was not delivered (its webhook-id)'),
        notificationTypeCode: z.string(),
        attemptCount: z.number().int(),
        lastStatusCode: z.number().int().nullable(),
        lastError: z.string().nullable(),
      })
      .meta({ id: 'WebhookDeliveryExhaustedData' }),
    example: {
      endpointId: '7b0e3c1e-2a44-4d1c-9a55-3f7a2f1b6c01',
      url: 'https://hooks.example.com/fincore',
      deliveryId: 'c3a0d2a4-51d8-4a3e-8d0c-2b1f0e9a7d11',
      eventId: '0d9f6a52-6c0b-4b7e-9a1e-5f2c3b4a1d22',
      notificationTypeCode: 'PERSON_UPDATED',
      attemptCount: 8,
      lastStatusCode: 500,
      lastError: 'HTTP 500',
    },
    ids: ['endpointId', 'deliveryId', 'eventId'],
    personalData: [],
  },
  WEBHOOK_TEST: {
    description:
      'A test event, sent on request (POST /webhook-endpoints/{id}/test) to that one endpoint only; no tenant subscribes to it.',
    schema: z
      .object({
        endpointId: z.string().describe('The endpoint it was sent to'),
        message: z.string().describe('Says what it is; carries nothing else'),
      })
      .meta({ id: 'WebhookTestData' }),
    example: {
      endpointId: '0b9f7c2e-5d1a-4f3e-9a8b-2c6d4e1f0a7b',
      message: 'A test event from fincore: this endpoint receives webhooks.',
    },
    ids: ['endpointId'],
    personalData: [],
  },
} as const satisfies Record<string, EventTypeEntry>;
