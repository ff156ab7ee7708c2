import { eventCursor, isExpired, retentionWindowStart } from './event-cursor';

describe('eventCursor', () => {
  const cursor = {
    key: '18446744073709551615',
    position: '42',
    createdAt: new Date('2026-11-26T10:00:00.123Z'),
  };

  it('decodes what it encoded', () => {
    expect(eventCursor.decode(eventCursor.encode(cursor))).toEqual(cursor);
  });

  it.each([
    ['not base64url', 'a+b/'],
    ['too few parts', Buffer.from('1.2').toString('base64url')],
    ['a key past 64 bits', Buffer.from('18446744073709551616.1.1').toString('base64url')],
    ['letters', Buffer.from('1.x.1').toString('base64url')],
    ['too long', 'A'.repeat(201)],
  ])('refuses %s with 400 invalid_cursor', (_, value) => {
    expect(() => eventCursor.decode(value)).toThrow(
      expect.objectContaining({ code: 'invalid_cursor', status: 400 }),
    );
  });
});

describe('isExpired', () => {
  it('holds for a cursor written before the retention window only', () => {
    const now = new Date('2026-11-26T12:00:00Z');
    const start = retentionWindowStart(now, 0.5);
    expect(start).toEqual(new Date('2026-11-26T00:00:00Z'));
    const at = (iso: string) => ({ key: '1', position: '1', createdAt: new Date(iso) });
    expect(isExpired(at('2026-11-25T23:59:59Z'), start)).toBe(true);
    expect(isExpired(at('2026-11-26T00:00:01Z'), start)).toBe(false);
  });
});
