import { statementName } from './prepared-statement';

describe('statementName', () => {
  it('names one text alike every time, and two texts apart', () => {
    const sut = statementName;

    expect(sut('SELECT $1::int')).toBe(sut('SELECT $1::int'));
    expect(sut('SELECT $1::int')).not.toBe(sut('SELECT $1::text'));
    expect(sut('SELECT $1::int')).toMatch(/^fincore_[0-9a-f]{20}$/);
  });
});
