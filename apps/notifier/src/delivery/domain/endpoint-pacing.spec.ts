import { endpointPauseMs, paceDecision, slotIntervalMs } from './endpoint-pacing';

describe('slotIntervalMs', () => {
  it('spaces deliveries by the inverse of the rate, rounded up, and not at all without a limit', () => {
    expect(slotIntervalMs(2)).toBe(500);
    expect(slotIntervalMs(3)).toBe(334);
    expect(slotIntervalMs(1000)).toBe(1);
    expect(slotIntervalMs(null)).toBe(0);
  });

  it('refuses a rate that is not a positive integer', () => {
    expect(() => slotIntervalMs(0)).toThrow(RangeError);
    expect(() => slotIntervalMs(1.5)).toThrow(RangeError);
  });
});

describe('endpointPauseMs', () => {
  const now = new Date('2026-01-10T12:00:00Z');

  it('pauses the endpoint for the Retry-After of a 429 or a 503, in seconds or as a date', () => {
    expect(endpointPauseMs({ kind: 'response', statusCode: 429, retryAfter: '3' }, now)).toBe(3000);
    expect(
      endpointPauseMs(
        { kind: 'response', statusCode: 503, retryAfter: 'Sat, 10 Jan 2026 12:00:10 GMT' },
        now,
      ),
    ).toBe(10_000);
  });

  it('does not pause without a Retry-After, on other statuses, on network errors, or for zero', () => {
    expect(endpointPauseMs({ kind: 'response', statusCode: 429 }, now)).toBeUndefined();
    expect(endpointPauseMs({ kind: 'response', statusCode: 500, retryAfter: '3' }, now)).toBeUndefined();
    expect(endpointPauseMs({ kind: 'error', message: 'ECONNRESET' }, now)).toBeUndefined();
    expect(endpointPauseMs({ kind: 'response', statusCode: 429, retryAfter: '0' }, now)).toBeUndefined();
  });
});

describe('paceDecision', () => {
  it('sends when the slot has come', () => {
    expect(paceDecision(1_000, 1_000, 50_000)).toEqual({ kind: 'send' });
    expect(paceDecision(900, 1_000, 50_000)).toEqual({ kind: 'send' });
  });

  it('waits as long in the local clock as the slot is ahead in Redis time', () => {
    expect(paceDecision(1_500, 1_000, 50_000)).toEqual({ kind: 'wait', at: new Date(50_500) });
  });
});
