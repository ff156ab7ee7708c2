import { isAfter, STREAM_END, STREAM_START } from './stream-position';

describe('isAfter', () => {
  it.each([
    ['1700000000001-0', '1700000000000-5', true],
    ['1700000000000-6', '1700000000000-5', true],
    ['1700000000000-5', '1700000000000-5', false],
    ['1700000000000-4', '1700000000000-5', false],
    ['999-0', '1700000000000-0', false],
    ['1-0', STREAM_START, true],
    ['1-0', STREAM_END, true],
  ])('%s after %s: %s', (id, position, expected) => {
    expect(isAfter(id, position)).toBe(expected);
  });

  it('compares by number, not by text', () => {
    expect(isAfter('10-0', '9-0')).toBe(true);
    expect(isAfter('5-10', '5-9')).toBe(true);
  });
});
