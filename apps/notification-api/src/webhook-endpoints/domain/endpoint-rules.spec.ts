import { needsSigningKeyPair, previousSecretExpiry, signatureSchemesAfter } from './endpoint-rules';

describe('previousSecretExpiry', () => {
  it('keeps the old secret for the grace period, or not at all', () => {
    const now = new Date('2026-01-10T12:00:00Z');
    expect(previousSecretExpiry(now, 24)).toEqual(new Date('2026-01-11T12:00:00Z'));
    expect(previousSecretExpiry(now, 0)).toBeNull();
  });
});

describe('signatureSchemesAfter', () => {
  it('keeps the stored schemes when none are asked for', () => {
    expect(signatureSchemesAfter(['v1'])).toEqual(['v1']);
  });

  it('replaces them, without duplicates and v1 first whatever the order asked', () => {
    expect(signatureSchemesAfter(['v1'], ['v1a', 'v1', 'v1a'])).toEqual(['v1', 'v1a']);
    expect(signatureSchemesAfter(['v1', 'v1a'], ['v1a'])).toEqual(['v1a']);
  });
});

describe('needsSigningKeyPair', () => {
  it('asks for a key pair only when v1a is on and the endpoint has none', () => {
    expect(needsSigningKeyPair(['v1', 'v1a'], false)).toBe(true);
    expect(needsSigningKeyPair(['v1a'], true)).toBe(false);
    expect(needsSigningKeyPair(['v1'], false)).toBe(false);
  });
});
