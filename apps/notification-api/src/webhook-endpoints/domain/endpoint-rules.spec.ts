import { previousSecretExpiry } from './endpoint-rules';

describe('previousSecretExpiry', () => {
  it('keeps the old secret for the grace period, or not at all', () => {
    const now = new Date('2026-01-10T12:00:00Z');
    expect(previousSecretExpiry(now, 24)).toEqual(new Date('2026-01-11T12:00:00Z'));
    expect(previousSecretExpiry(now, 0)).toBeNull();
  });
});
