import { randomUUID } from 'node:crypto';
import { decodeCursor, encodeCursor } from './cursor';
import { retryRefusal } from './retry-rules';

describe('cursor', () => {
  it('round-trips a position', () => {
    const position = { createdAt: new Date('2026-01-10T12:00:00.123Z'), id: randomUUID() };
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
  });
  it('refuses cursors it did not make', () => {
    expect(decodeCursor('garbage')).toBeUndefined();
    expect(
      decodeCursor(Buffer.from('2026-01-10T12:00:00Z|not-a-uuid').toString('base64url')),
    ).toBeUndefined();
    expect(decodeCursor(Buffer.from(`yesterday|${randomUUID()}`).toString('base64url'))).toBeUndefined();
  });
});

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
