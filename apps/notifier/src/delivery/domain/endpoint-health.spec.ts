import { healthAfterFailure } from './endpoint-health';

describe('healthAfterFailure', () => {
  const now = new Date('2026-03-10T12:00:00Z');
  const hoursAgo = (h: number) => new Date(now.getTime() - h * 3600 * 1000);
  const sut = (overrides: Partial<Parameters<typeof healthAfterFailure>[0]> = {}) =>
    healthAfterFailure({
      gone: false,
      statusCode: 500,
      failingSince: hoursAgo(1),
      failingNotified: false,
      now,
      disableAfterHours: 10,
      ...overrides,
    });

  it('disables on 410 whatever the streak', () => {
    expect(sut({ gone: true, statusCode: 410 })).toEqual({
      kind: 'disable',
      cause: 'gone',
      reason: 'the receiver answered 410 Gone',
    });
  });

  it('disables once the streak lasts the whole period, reported or not', () => {
    expect(sut({ failingSince: hoursAgo(10) })).toMatchObject({ kind: 'disable' });
    expect(sut({ failingSince: hoursAgo(12), failingNotified: true })).toEqual({
      kind: 'disable',
      cause: 'failing',
      reason: `failing without a success since ${hoursAgo(12).toISOString()} (limit 10 h)`,
    });
  });

  it('reports a streak of half the period once, with when the endpoint will be disabled', () => {
    expect(sut({ failingSince: hoursAgo(5) })).toEqual({ kind: 'warn_failing', disablesAt: hoursAgo(-5) });
    expect(sut({ failingSince: hoursAgo(7), failingNotified: true })).toEqual({ kind: 'none' });
  });

  it('does nothing to a shorter streak', () => {
    expect(sut({ failingSince: hoursAgo(4.99) })).toEqual({ kind: 'none' });
  });
});
