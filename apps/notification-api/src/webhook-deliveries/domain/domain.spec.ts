import { retryRefusal as sut } from './retry-rules';

describe('retryRefusal', () => {
  const active = { status: 'ACTIVE' as const, deletedAt: null };
  const now = new Date('2026-01-01T12:00:00Z');
  const later = new Date('2026-01-01T12:00:01Z');
  const finished = (status: 'FAILED' | 'SUCCEEDED') => ({ status, nextAttemptAt: null });

  it('allows a manual retry of finished deliveries to an active endpoint', () => {
    expect(sut(finished('FAILED'), active, now)).toBeUndefined();
    expect(sut(finished('SUCCEEDED'), active, now)).toBeUndefined();
  });
  it('allows a pending delivery that waits for an attempt scheduled later', () => {
    expect(sut({ status: 'PENDING', nextAttemptAt: later }, active, now)).toBeUndefined();
  });
  it('refuses a pending delivery that is due, or has no scheduled attempt: it may be under way', () => {
    expect(sut({ status: 'PENDING', nextAttemptAt: now }, active, now)).toBe('delivery_in_progress');
    expect(sut({ status: 'PENDING', nextAttemptAt: null }, active, now)).toBe('delivery_in_progress');
    expect(sut({ status: 'PENDING', nextAttemptAt: now }, active, later)).toBe('delivery_in_progress');
  });
  it('refuses a disabled or deleted endpoint', () => {
    expect(sut(finished('FAILED'), { status: 'DISABLED', deletedAt: null }, now)).toBe('endpoint_disabled');
    expect(sut(finished('FAILED'), { status: 'ACTIVE', deletedAt: new Date() }, now)).toBe(
      'endpoint_disabled',
    );
    expect(
      sut({ status: 'PENDING', nextAttemptAt: later }, { status: 'DISABLED', deletedAt: null }, now),
    ).toBe('endpoint_disabled');
  });
});
