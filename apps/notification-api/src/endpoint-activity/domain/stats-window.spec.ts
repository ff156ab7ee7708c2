import { hoursOf, totalOf as sut, windowStart } from './stats-window';

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

describe('windowStart', () => {
  it("starts the day's window at the whole hour 23 hours before the current one", () => {
    expect(windowStart('24h', new Date('2026-01-15T10:42:07Z'))).toEqual(new Date('2026-01-14T11:00:00Z'));
    expect(windowStart('24h', new Date('2026-01-15T10:00:00Z'))).toEqual(new Date('2026-01-14T11:00:00Z'));
  });
});
