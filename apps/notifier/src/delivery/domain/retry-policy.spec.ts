import fc from 'fast-check';
import {
  backoffDelay,
  decideAfterAttempt,
  JITTER_RATIO,
  parseRetryAfter,
  parseRetrySchedule,
  shouldDisableEndpoint,
} from './retry-policy';

const now = new Date('2026-01-10T12:00:00Z');
const schedule = parseRetrySchedule('5,300,1800');

describe('parseRetrySchedule', () => {
  it('reads seconds, fractions included, as milliseconds', () => {
    expect(parseRetrySchedule('5, 300,0.2')).toEqual([5000, 300000, 200]);
  });
  it('refuses anything that is not a list of non-negative numbers', () => {
    expect(() => parseRetrySchedule('5,abc')).toThrow(/Invalid retry schedule/);
    expect(() => parseRetrySchedule('5,-1')).toThrow(/Invalid retry schedule/);
  });
});

describe('backoffDelay', () => {
  it('follows the schedule, with jitter of at most ±20%', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3 }),
        fc.double({ min: 0, max: 0.999999, noNaN: true }),
        (failed, random) => {
          const sut = backoffDelay(failed, schedule, random)!;
          const base = schedule[failed - 1];
          expect(sut).toBeGreaterThanOrEqual(Math.floor(base * (1 - JITTER_RATIO)));
          expect(sut).toBeLessThanOrEqual(Math.ceil(base * (1 + JITTER_RATIO)));
        },
      ),
    );
  });
  it('is exactly the scheduled delay at the middle of the jitter', () => {
    expect(backoffDelay(2, schedule, 0.5)).toBe(300000);
  });
  it('gives up once the schedule is exhausted', () => {
    expect(backoffDelay(4, schedule, 0.5)).toBeUndefined();
    expect(backoffDelay(0, schedule, 0.5)).toBeUndefined();
  });
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP dates', () => {
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('Sat, 10 Jan 2026 12:00:30 GMT', now)).toBe(30000);
  });
  it('caps absurd values and ignores garbage or past dates', () => {
    expect(parseRetryAfter('99999999', now)).toBe(24 * 3600 * 1000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('Sat, 10 Jan 2026 11:00:00 GMT', now)).toBe(0);
  });
});

describe('decideAfterAttempt', () => {
  const decide = (result: Parameters<typeof decideAfterAttempt>[0]['result'], cycleAttempts = 1) =>
    decideAfterAttempt({ result, cycleAttempts, scheduleMs: schedule, now, random: 0.5 });

  it('treats every 2xx as success', () => {
    expect(decide({ kind: 'response', statusCode: 200 })).toEqual({ kind: 'succeeded' });
    expect(decide({ kind: 'response', statusCode: 204 })).toEqual({ kind: 'succeeded' });
  });
  it('retries 5xx, 4xx, redirects and network errors on the schedule', () => {
    expect(decide({ kind: 'response', statusCode: 500 })).toEqual({ kind: 'retry', delayMs: 5000 });
    expect(decide({ kind: 'response', statusCode: 400 })).toEqual({ kind: 'retry', delayMs: 5000 });
    expect(decide({ kind: 'response', statusCode: 404 }, 2)).toEqual({ kind: 'retry', delayMs: 300000 });
    expect(decide({ kind: 'response', statusCode: 301 }, 2)).toEqual({ kind: 'retry', delayMs: 300000 });
    expect(decide({ kind: 'error', message: 'ECONNREFUSED' }, 3)).toEqual({
      kind: 'retry',
      delayMs: 1800000,
    });
  });
  it('fails the delivery after the last scheduled retry', () => {
    expect(decide({ kind: 'response', statusCode: 500 }, 4)).toEqual({ kind: 'failed' });
  });
  it('honours Retry-After on 429 and 503 only', () => {
    expect(decide({ kind: 'response', statusCode: 429, retryAfter: '2' })).toEqual({
      kind: 'retry',
      delayMs: 2000,
    });
    expect(decide({ kind: 'response', statusCode: 503, retryAfter: '600' })).toEqual({
      kind: 'retry',
      delayMs: 600000,
    });
    expect(decide({ kind: 'response', statusCode: 500, retryAfter: '2' })).toEqual({
      kind: 'retry',
      delayMs: 5000,
    });
    expect(decide({ kind: 'response', statusCode: 429, retryAfter: '2' }, 4)).toEqual({ kind: 'failed' });
  });
  it('reports 410 Gone as the end of the endpoint', () => {
    expect(decide({ kind: 'response', statusCode: 410 })).toEqual({ kind: 'endpoint_gone' });
  });
});

describe('shouldDisableEndpoint', () => {
  it('disables only after the whole period without a success', () => {
    expect(shouldDisableEndpoint(null, now, 1)).toBe(false);
    expect(shouldDisableEndpoint(new Date(now.getTime() - 3599_000), now, 1)).toBe(false);
    expect(shouldDisableEndpoint(new Date(now.getTime() - 3600_000), now, 1)).toBe(true);
  });
});
