import type { DeliveryForAttempt } from '@fincore/notifications';
import { signingKeysInUse } from './signing-keys';

const now = new Date('2026-03-01T00:00:00Z');
const endpoint = (overrides: Partial<DeliveryForAttempt['endpoint']>): DeliveryForAttempt['endpoint'] => ({
  url: 'https://hooks.example.com',
  status: 'ACTIVE',
  payload: 'FULL',
  deletedAt: null,
  disabledReason: null,
  secretSealed: 'secret',
  previousSecretSealed: 'old-secret',
  previousSecretExpiresAt: null,
  failingNotifiedAt: null,
  tlsSealed: null,
  rateLimit: null,
  signatureSchemes: ['v1'],
  signingKeySealed: 'key',
  previousSigningKeySealed: 'old-key',
  ...overrides,
});

describe('signingKeysInUse', () => {
  const sut = signingKeysInUse;

  it('signs with the current keys of the schemes the endpoint asks for', () => {
    expect(sut(endpoint({}), now)).toEqual({ secrets: ['secret'], signingKeys: [] });
    expect(sut(endpoint({ signatureSchemes: ['v1a'] }), now)).toEqual({ secrets: [], signingKeys: ['key'] });
  });

  it('adds the previous keys while their grace period runs, and only then', () => {
    const schemes = ['v1', 'v1a'];
    const inGrace = endpoint({
      signatureSchemes: schemes,
      previousSecretExpiresAt: new Date(now.getTime() + 1),
    });
    const expired = endpoint({ signatureSchemes: schemes, previousSecretExpiresAt: now });

    expect(sut(inGrace, now)).toEqual({ secrets: ['secret', 'old-secret'], signingKeys: ['key', 'old-key'] });
    expect(sut(expired, now)).toEqual({ secrets: ['secret'], signingKeys: ['key'] });
  });
});
