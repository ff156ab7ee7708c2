export const createWebhookEndpointExample = {
  url: 'https://hooks.example.com/fincore',
  description: 'CRM sync',
  notificationTypeCodes: ['PERSON_UPDATED'],
  rateLimit: 20,
  signatureSchemes: ['v1', 'v1a'],
  ordering: 'SUBJECT',
  payload: 'FULL',
};

export const updateWebhookEndpointExample = {
  ordering: 'SUBJECT',
  payload: 'THIN',
  rateLimit: 5,
  signatureSchemes: ['v1a'],
};

const publicKey = 'whpk_Uq4Uu6ffNSDp5MMmKXsoCrDMVqVqmu2xOhvwMSUyodo=';

export const webhookEndpointExample = {
  id: '0b9f3c52-4a6e-4c38-9f3e-1f4c8e7d2a10',
  url: 'https://hooks.example.com/fincore',
  description: 'CRM sync',
  notificationTypeCodes: ['PERSON_UPDATED'],
  status: 'ACTIVE',
  ordering: 'SUBJECT',
  payload: 'FULL',
  disabledReason: null,
  disabledAt: null,
  failingSince: null,
  lastSuccessAt: '2026-01-10T12:00:05.000Z',
  rateLimit: 20,
  signatureSchemes: ['v1', 'v1a'],
  publicKey,
  createdAt: '2026-01-10T12:00:00.000Z',
  updatedAt: '2026-01-10T12:00:00.000Z',
};

const secretExample = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

export const webhookEndpointWithSecretExample = { ...webhookEndpointExample, secret: secretExample };

export const rotatedSecretExample = {
  id: webhookEndpointExample.id,
  secret: secretExample,
  previousSecretExpiresAt: '2026-01-11T12:00:00.000Z',
  publicKey: 'whpk_3m7PVKcMo8Xv9cNlz0TBGxqB7zjDFU0UTd8WYqoC0oI=',
};

export const publicKeyExample = {
  id: webhookEndpointExample.id,
  publicKey,
  previousPublicKey: null,
  previousPublicKeyExpiresAt: null,
};

export const replayRequestExample = { since: '2026-01-10T00:00:00Z' };

export const replayResultExample = { endpointId: webhookEndpointExample.id, replayed: 3 };
