import { jsonNestsDeeperThan } from './json-body';

describe(jsonNestsDeeperThan.name, () => {
  const sut = (text: string, limit: number) => jsonNestsDeeperThan(Buffer.from(text), limit);
  const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

  it('accepts bodies up to the limit and refuses deeper ones', () => {
    expect(sut(nested(3), 3)).toBe(false);
    expect(sut(nested(4), 3)).toBe(true);
    expect(sut('{"a":{"b":[{"c":1}]}}', 4)).toBe(false);
    expect(sut('{"a":{"b":[{"c":1}]}}', 3)).toBe(true);
  });

  it('ignores brackets inside strings, also after escaped quotes and in UTF-8 text', () => {
    expect(sut(`{"a":"${'['.repeat(100)}"}`, 1)).toBe(false);
    expect(sut(`{"a":"\\"${'{'.repeat(100)}"}`, 1)).toBe(false);
    expect(sut(`{"a":"Jürgen ✓ [","b":1}`, 1)).toBe(false);
    expect(sut(`{"a":"\\\\","b":${nested(5)}}`, 3)).toBe(true);
  });

  it('counts depth over siblings, not their number', () => {
    expect(sut(`[${Array(1000).fill('[]').join(',')}]`, 2)).toBe(false);
  });
});
