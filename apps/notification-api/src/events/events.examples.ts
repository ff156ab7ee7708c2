export const streamedEventExample = {
  cursor: 'MTg0MjMuOTEyLjE3NjgwNDY0MDAxMDA',
  event: {
    id: '9a1e7f60-2d4b-4c1a-8e5f-7b3c2d1e0f99',
    type: 'PERSON_UPDATED',
    tenantCode: 'ACME',
    occurredAt: '2026-01-10T12:00:00.000Z',
    correlationId: 'req-7f3c',
    subject: { type: 'person', id: '0b9f3c52-4a6e-4c38-9f3e-1f4c8e7d2a10' },
    sequence: null,
    data: { personId: '0b9f3c52-4a6e-4c38-9f3e-1f4c8e7d2a10', changedFields: ['lastName'] },
  },
};

export const eventPageExample = {
  items: [streamedEventExample],
  nextCursor: streamedEventExample.cursor,
};
