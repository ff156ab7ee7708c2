export const notificationConfigRequestExample = {
  notificationTypeCode: 'PERSON_UPDATED',
  channelCode: 'WEBHOOK',
};

export const notificationConfigExample = {
  ...notificationConfigRequestExample,
  enabled: true,
  enabledAt: '2026-01-10T12:00:00.000Z',
  updatedAt: '2026-01-10T12:00:00.000Z',
};

export const disabledNotificationConfigExample = {
  ...notificationConfigExample,
  enabled: false,
  enabledAt: null,
};

export const notificationTypeExample = {
  code: 'PERSON_UPDATED',
  description: 'A person changed: profile fields, or the status of their credentials.',
  channels: ['WEBHOOK'],
  dataSchema: { type: 'object', properties: { personId: { type: 'string' } } },
  thinDataSchema: {
    type: 'object',
    properties: { personId: { type: 'string' }, changedFields: { type: 'array' } },
  },
  example: { personId: 'demo-person-1', changedFields: ['lastName'] },
};
