import { randomUUID } from 'node:crypto';
import { isImplementedChannel } from './channels';
import { decodeCursor, encodeCursor } from './cursor';
import { previousSecretExpiry, retryRefusal } from './delivery-rules';

describe('channels', () => {
  it('implements WEBHOOK only', () => {
    expect(isImplementedChannel('WEBHOOK')).toBe(true);
    expect(isImplementedChannel('EMAIL')).toBe(false);
  });
});

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

describe('previousSecretExpiry', () => {
  it('keeps the old secret for the grace period, or not at all', () => {
    const now = new Date('2026-01-10T12:00:00Z');
    expect(previousSecretExpiry(now, 24)).toEqual(new Date('2026-01-11T12:00:00Z'));
    expect(previousSecretExpiry(now, 0)).toBeNull();
  });
});
