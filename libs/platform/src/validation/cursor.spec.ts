import { randomUUID } from 'node:crypto';
import { ProblemException } from '../errors/problem';
import { keysetCursor as sut } from './cursor';

const forged = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

describe('keysetCursor', () => {
  it('round-trips a position', () => {
    const position = { createdAt: new Date('2026-01-10T12:00:00.123Z'), id: randomUUID() };
    expect(sut.decode(sut.encode(position))).toEqual(position);
  });

  it.each([
    ['garbage', 'garbage'],
    ['the empty string', ''],
    ['not base64url', '2026-01-10T12:00:00.000Z|x'],
    ['padding', `${forged(`2026-01-10T12:00:00.000Z|${randomUUID()}`)}=`],
    ['an id that is no uuid', forged('2026-01-10T12:00:00.000Z|not-a-uuid')],
    ['a word for a time', forged(`yesterday|${randomUUID()}`)],
    ['a loosely written time', forged(`2026-01-10T12:00:00Z|${randomUUID()}`)],
    ['a date the calendar does not have', forged(`2026-02-30T12:00:00.000Z|${randomUUID()}`)],
    ['year 0000', forged(`0000-01-01T00:00:00.000Z|${randomUUID()}`)],
    ['a time before 1970', forged(`1969-12-31T23:59:59.999Z|${randomUUID()}`)],
    ['a time PostgreSQL cannot hold', forged(`+275760-09-13T00:00:00.000Z|${randomUUID()}`)],
    ['a third part', forged(`2026-01-10T12:00:00.000Z|${randomUUID()}|x`)],
    ['JSON', forged(JSON.stringify({ createdAt: '2026-01-10T12:00:00.000Z', id: randomUUID() }))],
    ['NUL', forged(`2026-01-10T12:00:00.000Z|${randomUUID()}\u0000`)],
    ['invalid UTF-8', Buffer.from([0xff, 0xfe, 0x7c]).toString('base64url')],
    ['a huge cursor', 'A'.repeat(100_000)],
  ])('refuses %s with 400 invalid_cursor', (_what, cursor) => {
    let thrown: unknown;
    try {
      sut.decode(cursor);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ProblemException);
    expect(thrown).toMatchObject({
      code: 'invalid_cursor',
      status: 400,
      errors: [{ field: 'cursor', message: 'unknown cursor' }],
    });
  });
});
