import { retryRefusal } from './retry-rules';

describe('retryRefusal', () => {
  const active = { status: 'ACTIVE' as const, deletedAt: null };
  it('allows a manual retry of finished deliveries to an active endpoint', () => {
    expect(retryRefusal({ status: 'FAILED' }, active)).toBeUndefined();
    expect(retryRefusal({ status: 'SUCCEEDED' }, active)).toBeUndefined();
  });
  it('refuses a pending delivery and a disabled or deleted endpoint', () => {
    expect(retryRefusal({ status: 'PENDING' }, active)).toBe('delivery_in_progress');
    expect(retryRefusal({ status: 'FAILED' }, { status: 'DISABLED', deletedAt: null })).toBe(
      'endpoint_disabled',
    );
    expect(retryRefusal({ status: 'FAILED' }, { status: 'ACTIVE', deletedAt: new Date() })).toBe(
      'endpoint_disabled',
    );
  });
});
