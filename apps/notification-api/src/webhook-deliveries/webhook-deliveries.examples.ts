export const webhookDeliveryExample = {
  id: '5d0c8a4e-3b1f-4f6a-9a0e-2c7b9e1d4f33',
  endpointId: '0b9f3c52-4a6e-4c38-9f3e-1f4c8e7d2a10',
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

const sentHeaders = (timestamp: string, signature: string) => ({
  'content-type': 'application/json',
  'user-agent': 'fincore-webhooks/0.1 (+https://www.standardwebhooks.com)',
  'webhook-id': webhookDeliveryExample.eventId,
  'webhook-timestamp': timestamp,
  'webhook-signature': `v1,${signature}`,
});

export const webhookDeliveryDetailExample = {
  ...webhookDeliveryExample,
  requestBody: JSON.stringify({
    id: webhookDeliveryExample.eventId,
    type: 'PERSON_UPDATED',
    tenantCode: 'ACME',
    occurredAt: '2026-01-10T12:00:00.000Z',
    correlationId: null,
    subject: { type: 'person', id: 'person-4711' },
    sequence: null,
    data: { personId: 'person-4711', changedFields: ['lastName'] },
  }),
  attempts: [
    {
      attemptNumber: 1,
      startedAt: '2026-01-10T12:00:00.200Z',
      durationMs: 31,
      statusCode: 500,
      outcome: 'FAILED',
      error: 'HTTP 500',
      responseExcerpt: 'oops',
      requestHeaders: sentHeaders('1768046400', 'g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE='),
    },
    {
      attemptNumber: 2,
      startedAt: '2026-01-10T12:00:05.300Z',
      durationMs: 12,
      statusCode: 200,
      outcome: 'SUCCEEDED',
      error: null,
      responseExcerpt: 'ok',
      requestHeaders: sentHeaders('1768046405', 'Yv5AX0xkS8o1jHcU6HnWXoTtf1tA3nlHq2Zb8d4bQ2c='),
    },
  ],
};

export const webhookDeliveryListExample = { items: [webhookDeliveryExample], nextCursor: null };
