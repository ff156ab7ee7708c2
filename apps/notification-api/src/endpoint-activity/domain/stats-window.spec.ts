import { hoursOf, totalOf as sut } from './stats-window';

describe('totalOf', () => {
  it('sums every hour by outcome', () => {
    expect(
      sut([
        { succeeded: 1, failed: 2, pending: 0 },
        { succeeded: 3, failed: 0, pending: 4 },
      ]),
    ).toEqual({ succeeded: 4, failed: 2, pending: 4 });
  });
  it('is zero for no hours', () => {
    expect(sut([])).toEqual({ succeeded: 0, failed: 0, pending: 0 });
  });
});

describe('hoursOf', () => {
  it('covers a day or a week in hours', () => {
    expect([hoursOf('24h'), hoursOf('7d')]).toEqual([24, 168]);
  });
});
