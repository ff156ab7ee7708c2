export const createWebhookEndpointExample = {
  url: 'https://hooks.example.com/fincore',
  description: 'CRM sync',
  notificationTypeCodes: ['PERSON_UPDATED'],
  rateLimit: 20,
  signatureSchemes: ['v1', 'v1a'],
  ordering: 'SUBJECT',
  filter: { path: 'data.changedFields', contains: 'credentials.status' },
  payload: 'FULL',
};

export const updateWebhookEndpointExample = {
  ordering: 'SUBJECT',
  payload: 'THIN',
  rateLimit: 5,
  signatureSchemes: ['v1a'],
  filter: {
    any: [
      { path: 'data.changedFields', contains: 'credentials.status' },
      { path: 'subject.type', equals: 'card' },
    ],
  },
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
  filter: { path: 'data.changedFields', contains: 'credentials.status' },
  tls: {
    clientCertificate: {
      subject: 'CN=fincore notifier',
      issuer: 'CN=Example Corp client CA',
      fingerprint256:
        '3A:1F:9C:42:7B:0D:E5:66:81:2C:4F:A9:13:D7:5E:88:90:BC:27:61:F3:0A:44:D2:6E:19:C8:7F:35:B0:E2:5D',
      validFrom: '2026-01-01T00:00:00.000Z',
      validTo: '2027-01-01T00:00:00.000Z',
    },
    hasClientKey: true,
    caCertificates: 1,
  },
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
